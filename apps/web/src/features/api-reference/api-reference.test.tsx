/**
 * /rpc/api-reference against a fake rpc.discover: only the request client is replaced, and its answer is the
 * contract's own document (buildOpenRpcDocument), so the page is tested on what the server really serves.
 */
import { buildOpenRpcDocument } from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../lib/i18n';
import type * as RpcClientModule from '../../lib/rpc-client';
import { callDiscover } from '../../lib/rpc-client';
import { ApiReferencePage } from './components/api-reference-page';

vi.mock('../../lib/rpc-client', async (importOriginal) => ({
  ...(await importOriginal<typeof RpcClientModule>()),
  callDiscover: vi.fn(),
}));

const discover = vi.mocked(callDiscover);

type TDocument = { methods: { tags?: { name: string }[] }[] };
const FULL = buildOpenRpcDocument('test') as unknown as TDocument;

/** The contract's document cut to a few domains: the whole of it is slow to query in jsdom. */
function contractDocument(tags: readonly string[] = ['api-keys', 'chains']) {
  return { ...FULL, methods: FULL.methods.filter((m) => tags.includes(m.tags?.[0]?.name ?? '')) };
}

function renderPage(path = '/rpc/api-reference') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <ApiReferencePage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** A method's section, found by its anchor (role queries over every method are slow in jsdom). */
async function method(name: string): Promise<HTMLElement> {
  await waitFor(() => expect(document.getElementById(name)).not.toBeNull());
  const article = document.getElementById(name)!;
  expect(article.tagName).toBe('ARTICLE');
  expect(article).toHaveAccessibleName(name);
  return article;
}

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(async () => {
  discover.mockReset();
  discover.mockResolvedValue(contractDocument());
  await act(() => i18n.changeLanguage('en'));
});

describe('ApiReferencePage', () => {
  it('loads the whole document through rpc.discover and groups the methods by domain', async () => {
    discover.mockResolvedValue(FULL);
    renderPage();
    expect(screen.getByRole('status', { name: 'Loading the API reference…' })).toBeInTheDocument();
    expect(await screen.findByText(`${FULL.methods.length} methods`)).toBeInTheDocument();
    expect(discover).toHaveBeenCalledTimes(1);
    expect(document.querySelectorAll('article')).toHaveLength(FULL.methods.length);
    // drawn in chunks: in the end every method has its details
    await waitFor(
      () =>
        expect(
          [...document.querySelectorAll('article h4')].filter(
            (h) => h.textContent === 'Parameters',
          ),
        ).toHaveLength(FULL.methods.length),
      { timeout: 30_000 },
    );
    const groups = [...document.querySelectorAll('h2[id^="group-"]')].map((h) => h.textContent);
    expect(groups).toEqual(
      expect.arrayContaining(['Account', 'API keys', 'Usage reports', 'Teams']),
    );
    expect(groups).not.toContain('Other');
    expect(document.querySelector('h1')).toHaveTextContent('Console API reference');
    // the contents link to each group
    const contents = document.querySelector('nav')!;
    expect(contents).toHaveAccessibleName('Methods by domain');
    expect(within(contents).getByText(/^API keys \(\d+\)$/)).toHaveAttribute(
      'href',
      '#group-api-keys',
    );
    // no English-only note on the English page
    expect(screen.queryByText(/come from the API document and are in English/)).toBeNull();
  }, 60_000);

  it('shows a method with its params, result, permission, anchor and example request', async () => {
    renderPage();
    const article = await method('hub_generateApiKey');
    expect(article).toHaveAttribute('id', 'hub_generateApiKey');
    const view = within(article);
    expect(view.getByRole('link', { name: 'Link to hub_generateApiKey' })).toHaveAttribute(
      'href',
      '#hub_generateApiKey',
    );
    expect(view.getByText(/Creates an API key for the acting account/)).toHaveAttribute(
      'lang',
      'en',
    );
    // params: the name field, required, a string of 1–40 characters
    const params = view.getByRole('heading', { name: 'Parameters' }).nextElementSibling!;
    const name = within(params as HTMLElement)
      .getByText('name')
      .closest('li')!;
    expect(name).toHaveTextContent('required');
    expect(name).toHaveTextContent('string');
    expect(name).toHaveTextContent('at least 1 character · at most 40 characters');
    // result: nested fields of allowlists, enums written out
    const result = view.getByRole('heading', { name: 'Result' }).nextElementSibling as HTMLElement;
    expect(within(result).getByText('"" | "auto" | "globalcast"')).toBeInTheDocument();
    const allowlists = within(result).getByText('allowlists').closest('li')!;
    expect(within(allowlists).getByText('origins')).toBeInTheDocument();
    expect(allowlists).toHaveTextContent('string[]');
    expect(allowlists).toHaveTextContent('at most 100 items');
    // who may call it
    expect(view.getByText('keys')).toBeInTheDocument();
    expect(article).toHaveTextContent('creates, changes and deletes API keys');
    expect(article).toHaveTextContent('Team roles that have it: Owner, Admin');
    expect(article).toHaveTextContent('Required: a signed-in user');
    // the example request, with the header it needs
    const example = view.getByRole('group', { name: 'Example request body of hub_generateApiKey' });
    expect(JSON.parse(example.textContent!)).toEqual({
      method: 'hub_generateApiKey',
      params: { name: '' },
      id: 1,
    });
    expect(article).toHaveTextContent('Authorization: Bearer <token>');
    expect(
      view.getByRole('button', { name: 'Copy the example request of hub_generateApiKey' }),
    ).toBeInTheDocument();
  });

  it('says when no session is needed, and shows the raw schema on request', async () => {
    renderPage();
    const view = within(await method('hub_getSupportChains'));
    expect(view.getByText('Not needed: anyone may call it')).toBeInTheDocument();
    expect(view.getByText(/no token is needed/)).toBeInTheDocument();
    expect(
      view.queryByRole('group', { name: 'Raw JSON Schema of hub_getSupportChains' }),
    ).toBeNull();
    await userEvent.click(view.getByText('Raw JSON Schema'));
    await waitFor(() =>
      expect(
        view.getByRole('group', { name: 'Raw JSON Schema of hub_getSupportChains' }),
      ).toHaveTextContent('"httpUrlTemplate"'),
    );
  });

  it('searches by name and summary, says when nothing matches, and clears', async () => {
    renderPage();
    const search = await screen.findByRole('searchbox', { name: 'Search methods' });
    const total = contractDocument().methods;
    expect(screen.getByText(`${total.length} methods`)).toBeInTheDocument();

    await userEvent.type(search, 'generateapikey');
    await waitFor(() => expect(screen.getByText('1 method')).toBeInTheDocument());
    expect(screen.getAllByRole('article').map((a) => a.id)).toEqual(['hub_generateApiKey']);
    // a short result lists its methods in the contents too
    const contents = screen.getByRole('navigation', { name: 'Methods by domain' });
    expect(within(contents).getByRole('link', { name: 'hub_generateApiKey' })).toHaveAttribute(
      'href',
      '#hub_generateApiKey',
    );

    await userEvent.clear(search);
    await userEvent.type(search, 'archive mode');
    await waitFor(() =>
      expect(screen.getAllByRole('article').map((a) => a.id)).toContain(
        'hub_setApiKeyAdvancedFeatures',
      ),
    );

    await userEvent.clear(search);
    await userEvent.type(search, 'no such method anywhere');
    expect(await screen.findByText('No method matches “no such method anywhere”.')).toBeVisible();
    expect(screen.queryAllByRole('article')).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Clear the search' }));
    expect(await screen.findByText(`${total.length} methods`)).toBeInTheDocument();
  });

  it('opens at the method a link names and moves focus there', async () => {
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    renderPage('/rpc/api-reference#hub_deleteApiKey');
    const article = await method('hub_deleteApiKey');
    await waitFor(() => expect(article).toHaveFocus());
    expect(scrolled).toHaveBeenCalled();
  });

  it('lists the errors a method documents', async () => {
    discover.mockResolvedValue({
      openrpc: '1.3.2',
      info: { title: 'Console API', version: '1' },
      methods: [
        {
          name: 'hub_generateApiKey',
          summary: 'Creates a key.',
          tags: [{ name: 'api-keys' }],
          params: [],
          errors: [{ $ref: '#/components/errors/50409' }],
          'x-auth': 'user',
          'x-permission': 'keys',
        },
      ],
      components: { errors: { '50409': { code: 50409, message: 'Too many API keys.' } } },
    });
    renderPage();
    const view = within(await method('hub_generateApiKey'));
    expect(view.getByRole('heading', { name: 'Errors' })).toBeInTheDocument();
    expect(view.getByText('50409')).toBeInTheDocument();
    expect(view.getByText('Too many API keys.')).toBeInTheDocument();
    expect(view.getByText('No parameters: send {} or leave params out.')).toBeInTheDocument();
  });

  it('shows an error with a retry when the document cannot be loaded', async () => {
    discover.mockRejectedValueOnce(new Error('down'));
    renderPage();
    expect(await screen.findByText('The API reference could not be loaded.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await method('hub_generateApiKey')).toBeInTheDocument();
    expect(discover).toHaveBeenCalledTimes(2);
  });

  it('speaks Chinese, and says the document’s own texts are English', async () => {
    await act(() => i18n.changeLanguage('zh'));
    renderPage('/zh/rpc/api-reference');
    expect(await screen.findByRole('heading', { level: 2, name: 'API Key' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: '控制台 API 参考' })).toBeVisible();
    expect(screen.getByText('方法的摘要、说明和结构来自 API 文档，为英文。')).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: '搜索方法' })).toBeInTheDocument();
    const view = within(await method('hub_generateApiKey'));
    expect(view.getByRole('heading', { name: '参数' })).toBeInTheDocument();
    const params = view.getByRole('heading', { name: '参数' }).nextElementSibling as HTMLElement;
    const name = within(params).getByText('name').closest('li')!;
    expect(name).toHaveTextContent('必填');
    expect(name).toHaveTextContent('至少 1 个字符 · 最多 40 个字符');
    expect(view.getByText('拥有此权限的团队角色：所有者、管理员')).toBeInTheDocument();
    expect(view.getByRole('link', { name: 'hub_generateApiKey 的链接' })).toBeInTheDocument();
  });
});
