/** The operator banner, the support form and the tracking batcher, against a fake API (callRpc and fetch). */
import type { TBanner } from '@rpc/contract';
import { TRACKING_MAX_EVENTS } from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { UserMenu } from '../../components/user-menu';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import type * as RpcClientModule from '../../lib/rpc-client';
import { callRpc } from '../../lib/rpc-client';
import { createTracker, normalisePage, trackEvent, TRACKING_FLUSH_MS } from '../../lib/tracking';
import { fakeRpc, type TFakeHandlers } from '../../test/fake-api';
import { makeUser } from '../../test/fixtures';
import { DISMISSED_BANNERS_KEY, OperatorBanner } from './components/operator-banner';
import { SupportDrawer } from './components/support-drawer';
import { SupportTicketForm } from './components/support-ticket-form';

vi.mock('../../lib/rpc-client', async (importOriginal) => ({
  ...(await importOriginal<typeof RpcClientModule>()),
  callRpc: vi.fn(),
}));

const rpc = vi.mocked(callRpc);
let handlers: TFakeHandlers = {};

const BANNER: TBanner = {
  bannerId: 'b-1',
  level: 'warning',
  text: 'Maintenance on Sunday 02:00 UTC',
  linkUrl: 'https://status.example.com/x',
  startsAt: 1,
  endsAt: 2,
};

function renderWith(node: ReactNode, path = '/rpc/endpoint') {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>{node}</MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(() => {
  localStorage.clear();
  handlers = {
    hub_getBanner: () => BANNER,
    hub_getPureApiKeys: () => ({ list: [{ keyId: 'k-1', name: 'prod' }] }),
  };
  rpc.mockReset();
  rpc.mockImplementation(fakeRpc(() => handlers) as typeof callRpc);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('operator banner', () => {
  it('shows the live banner with a safe link, and stays dismissed once dismissed', async () => {
    const first = renderWith(<OperatorBanner />);
    expect(await screen.findByText(BANNER.text)).toBeInTheDocument();
    const link = screen.getByRole('link', { name: /Details/ });
    expect(link).toHaveAttribute('href', BANNER.linkUrl);
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link).toHaveAttribute('target', '_blank');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Dismiss announcement' }));
    await waitFor(() => expect(screen.queryByText(BANNER.text)).not.toBeInTheDocument());
    expect(JSON.parse(localStorage.getItem(DISMISSED_BANNERS_KEY)!)).toEqual(['b-1']);
    first.unmount();

    // A new page load: the same banner stays away, a new one shows.
    renderWith(<OperatorBanner />);
    await waitFor(() => expect(rpc).toHaveBeenCalledTimes(2));
    expect(screen.queryByText(BANNER.text)).not.toBeInTheDocument();
  });

  it('shows a new banner after an older one was dismissed, and nothing when there is none', async () => {
    localStorage.setItem(DISMISSED_BANNERS_KEY, JSON.stringify(['b-1']));
    handlers.hub_getBanner = () => ({
      ...BANNER,
      bannerId: 'b-2',
      text: 'New notice',
      linkUrl: null,
    });
    const view = renderWith(<OperatorBanner />);
    expect(await screen.findByText('New notice')).toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    view.unmount();

    handlers.hub_getBanner = () => null;
    renderWith(<OperatorBanner />);
    await waitFor(() => expect(rpc).toHaveBeenCalledTimes(2));
    expect(screen.queryByRole('button', { name: 'Dismiss announcement' })).not.toBeInTheDocument();
  });
});

// The first render of antd's Form, Select and Drawer is slow on a busy machine: more room than the default 20 s.
describe('support ticket form', { timeout: 45_000 }, () => {
  function stubFetch(answer: unknown) {
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) =>
      Response.json(answer, { status: 200 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    return fetchMock;
  }

  async function fillAndSend(file?: File) {
    const user = userEvent.setup();
    // change events, not typing: a key at a time through antd's inputs is slow on a busy machine.
    fireEvent.change(screen.getByLabelText('Subject'), { target: { value: 'Calls time out' } });
    fireEvent.change(screen.getByLabelText('Message'), {
      target: { value: 'Every eth_call times out since 9:00.' },
    });
    if (file) await user.upload(screen.getByLabelText(/^Attachment/), file);
    await user.click(screen.getByRole('button', { name: 'Send ticket' }));
  }

  it('sends the form as multipart and shows the ticket number', async () => {
    const fetchMock = stubFetch({
      id: null,
      result: { ticketId: 't-1', number: 'TKT-000123', createdAt: 1 },
    });
    renderWith(<SupportTicketForm isOpen />);
    await fillAndSend(new File(['log line'], 'error.log', { type: 'text/plain' }));
    expect(await screen.findByText('Ticket TKT-000123 received')).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/support/ticket');
    const form = init.body as FormData;
    expect(form.get('category')).toBe('technical');
    expect(form.get('subject')).toBe('Calls time out');
    expect((form.get('attachment') as File).name).toBe('error.log');
    expect(form.has('apiKeyId')).toBe(false);
  });

  it('shows the server error in place and keeps what was typed', async () => {
    stubFetch({
      id: null,
      error: {
        code: 11102,
        message: 'The attachment must be a PNG or JPEG image, a PDF or a plain text file.',
        messageZh: '附件必须是 PNG 或 JPEG 图片、PDF 或纯文本文件。',
      },
    });
    renderWith(<SupportTicketForm isOpen />);
    await fillAndSend(new File(['%PDF-'], 'a.pdf', { type: 'application/pdf' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The attachment must be a PNG or JPEG image, a PDF or a plain text file.',
    );
    expect(screen.getByLabelText('Subject')).toHaveValue('Calls time out');
    expect(screen.queryByText(/received/)).not.toBeInTheDocument();
  });

  it('checks required fields and the file before sending anything', async () => {
    const fetchMock = stubFetch({});
    renderWith(<SupportTicketForm isOpen />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send ticket' }));
    expect(await screen.findByText('Enter a subject.')).toBeInTheDocument();
    expect(screen.getByText('Describe the problem.')).toBeInTheDocument();

    const big = new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText(/^Attachment/), { target: { files: [big] } });
    expect(await screen.findByText('The file is larger than 2 MB.')).toBeInTheDocument();
    const exe = new File(['MZ'], 'setup.exe', { type: 'application/octet-stream' });
    fireEvent.change(screen.getByLabelText(/^Attachment/), { target: { files: [exe] } });
    expect(await screen.findByText('Choose a PNG, JPEG, PDF or text file.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('support drawer', { timeout: 45_000 }, () => {
  it('opens from the user menu and lists the account’s tickets with their status', async () => {
    useSession.setState({ user: makeUser({ nickname: 'Ada' }), loginType: 'personal' });
    handlers.hub_getSupportTickets = () => ({
      list: [
        {
          ticketId: 't-2',
          number: 'TKT-000002',
          category: 'billing',
          subject: 'Invoice address',
          status: 'answered',
          createdAt: 1_700_000_000_000,
          hasAttachment: true,
        },
      ],
      total: 1,
      page: 1,
      perPage: 5,
    });
    renderWith(
      <>
        <UserMenu />
        <SupportDrawer />
      </>,
    );
    const user = userEvent.setup();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'User menu (Ada)' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Contact support' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Support');
    expect(screen.getByRole('button', { name: 'Send ticket' })).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'My tickets' }));
    expect(await screen.findByText('TKT-000002')).toBeInTheDocument();
    expect(screen.getByText('Invoice address')).toBeInTheDocument();
    expect(screen.getByText('Answered')).toBeInTheDocument();
    expect(screen.getByText('Billing and payments')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Has an attachment' })).toBeInTheDocument();
  });
});

describe('tracking', () => {
  it('batches events and sends them every 10 s, on a full batch and on pagehide', async () => {
    vi.useFakeTimers();
    let t = 1_000_000;
    const send = vi.fn(async () => {});
    const tracker = createTracker({ send, now: () => t });
    tracker.track('view', '/rpc/endpoint');
    t += 1;
    tracker.track('support.open', '/zh/rpc/billings');
    expect(send).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(TRACKING_FLUSH_MS - 1);
    expect(send).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenLastCalledWith(
      [
        { page: '/rpc/endpoint', action: 'view', at: 1_000_000 },
        { page: '/rpc/billings', action: 'support.open', at: 1_000_001 },
      ],
      { isUnloading: false },
    );
    // Nothing queued: the next tick sends nothing.
    await vi.advanceTimersByTimeAsync(TRACKING_FLUSH_MS);
    expect(send).toHaveBeenCalledTimes(1);

    // A full batch goes at once, in one call of at most TRACKING_MAX_EVENTS.
    for (let i = 0; i < TRACKING_MAX_EVENTS; i += 1) tracker.track('view', '/rpc');
    await vi.advanceTimersByTimeAsync(0);
    expect(send).toHaveBeenCalledTimes(2);
    expect((send.mock.calls[1] as unknown as [unknown[]])[0]).toHaveLength(TRACKING_MAX_EVENTS);

    tracker.track('view', '/rpc/statistic');
    window.dispatchEvent(new Event('pagehide'));
    await vi.advanceTimersByTimeAsync(0);
    expect(send).toHaveBeenCalledTimes(3);
    expect(send).toHaveBeenLastCalledWith([{ page: '/rpc/statistic', action: 'view', at: t }], {
      isUnloading: true,
    });
    tracker.stop();
  });

  it('fails silently and drops the batch', async () => {
    vi.useFakeTimers();
    const send = vi.fn(async () => {
      throw new Error('offline');
    });
    const tracker = createTracker({ send });
    tracker.track('view', '/rpc');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(TRACKING_FLUSH_MS);
    });
    expect(send).toHaveBeenCalledTimes(1);
    expect(tracker.queued()).toBe(0);
    tracker.stop();
  });

  it.each([
    ['/rpc/endpoint?tab=guide#x', '/rpc/endpoint'],
    ['/zh/rpc/team/logs', '/rpc/team/logs'],
    ['/invoice/Ab3dEf9hJk2LmN0pQr', '/invoice/:id'],
    ['/rpc/dedicated-node/0b9f1c2e-1111-4a4a-8b8b-123456789abc', '/rpc/dedicated-node/:id'],
    ['/a b/<script>', '/:id/:id'],
    ['/', '/'],
  ])('reports %s as %s', (path, page) => {
    expect(normalisePage(path)).toBe(page);
  });

  it('is off in tests unless a test turns it on', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    vi.useFakeTimers();
    trackEvent('view', '/rpc');
    await vi.advanceTimersByTimeAsync(TRACKING_FLUSH_MS * 2);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
