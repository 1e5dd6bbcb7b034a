/** The dashboard shell: navigation (overview first, one tab stop per link), logo, user menu, bell, phone drawer. */
import type { TNotice } from '@rpc/contract';
import { NOTICE_CUTOFF_MS } from '@rpc/contract';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { HELP_LINKS, supportMailto } from '../../lib/help-links';
import { i18n, initI18n } from '../../lib/i18n';
import { langFromPath } from '../../lib/locale-path';
import { resetNotices, useNotices } from '../../lib/notices';
import { createQueryClient } from '../../lib/query-client';
import { useSession } from '../../lib/session';
import { makeUser } from '../../test/fixtures';
import { DashboardLayout, PHONE_MEDIA_QUERY } from './dashboard-layout';
import { activeNavKey } from './sidebar-nav';

function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="where">{`${pathname}${search}`}</p>;
}

async function renderAt(path: string) {
  await i18n.changeLanguage(langFromPath(path));
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <DashboardLayout>
            <Where />
          </DashboardLayout>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

/** matchMedia as a phone (390 px wide) answers it: only the phone query matches. */
function asPhone() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === PHONE_MEDIA_QUERY,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }));
}

function notice(id: string, over: Partial<TNotice> = {}): TNotice {
  return {
    id,
    type: 'register_gift',
    title: '',
    content: '',
    createdAt: NOTICE_CUTOFF_MS + 1000,
    read: false,
    teamId: null,
    expand: { amount: 1000 },
    ...over,
  } as TNotice;
}

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(() => {
  useSession.setState({ token: 'tok', user: makeUser(), loginType: 'personal', teamId: null });
  resetNotices();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('activeNavKey', () => {
  it.each([
    ['/rpc', 'overview'],
    ['/rpc/', 'overview'],
    ['/zh/rpc', 'overview'],
    ['/rpc/endpoint', 'endpoint'],
    ['/rpc/billings/charge', 'billing'],
    ['/zh/rpc/dedicated-node/new', 'dedicatedNode'],
    ['/rpc/team/logs', 'team'],
    ['/rpc/notifications', undefined],
    ['/zh/rpc/api-reference', 'apiReference'],
  ])('%s is under %s', (path, key) => {
    expect(activeNavKey(path)).toBe(key);
  });
});

describe('dashboard layout (wide)', () => {
  it('lists the overview first, marks the current page, and the logo leads to the overview', async () => {
    await renderAt('/rpc/billings/invoice');
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    const names = within(within(nav).getByRole('list'))
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(names).toEqual([
      'Overview',
      'Endpoint',
      'Statistics',
      'Billing',
      'Dedicated nodes',
      'Team',
      'Profile',
      'API reference',
    ]);
    expect(within(nav).getByRole('link', { name: 'Overview' })).toHaveAttribute('href', '/rpc');
    expect(within(nav).getByRole('link', { name: 'Billing' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(screen.getByRole('link', { name: 'RPC Console home' })).toHaveAttribute('href', '/rpc');
  });

  it('keeps the locale prefix on the logo and the links in Chinese', async () => {
    await renderAt('/zh/rpc/profile');
    expect(screen.getByRole('link', { name: 'RPC 控制台首页' })).toHaveAttribute('href', '/zh/rpc');
    const nav = screen.getByRole('navigation', { name: '主导航' });
    expect(within(nav).getByRole('link', { name: '概览' })).toHaveAttribute('href', '/zh/rpc');
  });

  it('gives the navigation one tab stop per link and none for the list', async () => {
    await renderAt('/rpc/endpoint');
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    const logo = within(nav).getByRole('link', { name: 'RPC Console home' });
    const links = within(within(nav).getByRole('list')).getAllByRole('link');
    const tabbable = nav.querySelectorAll('a[href], button, [tabindex]:not([tabindex="-1"])');
    expect([...tabbable]).toEqual([logo, ...links]);
    expect(nav.querySelector('[role="menu"], [role="menuitem"]')).toBeNull();

    const user = userEvent.setup();
    logo.focus();
    for (const link of links) {
      await user.tab();
      expect(link).toHaveFocus();
    }
  });

  it('names icons-only links when the sidebar is collapsed', async () => {
    await renderAt('/rpc/statistic');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Collapse sidebar' }));
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Statistics' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it('footer links to the terms and the privacy policy, in a new tab', async () => {
    await renderAt('/rpc');
    const footer = screen.getByRole('navigation', { name: 'Legal' });
    // jsdom's name computation drops the space before the hidden note; browsers keep it.
    const link = (name: string) =>
      within(footer).getByRole('link', {
        name: new RegExp(`^${name} ?\\(opens in a new tab\\)$`),
      });
    expect(link('Terms of Service')).toHaveAttribute('href', HELP_LINKS.terms);
    const privacy = link('Privacy Policy');
    expect(privacy).toHaveAttribute('href', HELP_LINKS.privacy);
    expect(privacy).toHaveAttribute('target', '_blank');
    expect(privacy).toHaveAttribute('rel', 'noopener noreferrer');
  });
});

describe('user menu', () => {
  // Moving between items is rc-menu's (it needs layout, so the Playwright spec checks it in a browser).
  it('moves focus to the first item on ArrowDown', async () => {
    await renderAt('/rpc/endpoint');
    const user = userEvent.setup();
    const button = screen.getByRole('button', { name: 'User menu (Ada)' });
    button.focus();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Profile' })).toHaveFocus());
    expect(button).toHaveAttribute('aria-expanded', 'true');
  });

  it('says who is signed in and offers profile, docs, support and sign-out', async () => {
    await renderAt('/rpc/endpoint');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'User menu (Ada)' }));
    expect(await screen.findByText('Signed in as Ada')).toBeInTheDocument();
    expect(screen.getByText('Personal account')).toBeInTheDocument();
    const names = screen.getAllByRole('menuitem').map((item) => item.textContent?.trim());
    expect(names).toEqual(['Profile', 'Help & docs', 'Contact support', 'Sign out']);
  });

  it('leads to the gateway guide for help', async () => {
    await renderAt('/zh/rpc/statistic');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: '用户菜单（Ada）' }));
    await user.click(await screen.findByRole('menuitem', { name: '帮助与文档' }));
    await waitFor(() =>
      expect(screen.getByTestId('where')).toHaveTextContent('/zh/rpc/endpoint?tab=guide'),
    );
  });

  it('opens Profile in the current language', async () => {
    await renderAt('/zh/rpc/endpoint');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: '用户菜单（Ada）' }));
    await user.click(await screen.findByRole('menuitem', { name: '个人资料' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/zh/rpc/profile'));
  });

  it.each([
    ['support@example.com', 'mailto:support@example.com'],
    [' help@rpc.example ', 'mailto:help@rpc.example'],
    ['support@localhost', 'mailto:support@localhost'],
    ['not an address', undefined],
    [undefined, undefined],
  ])('support address %s gives %s', (address, href) => {
    expect(supportMailto(address)).toBe(href);
  });
});

describe('notification bell', () => {
  it('previews the latest notices and links to all of them', async () => {
    useNotices.setState({
      list: [notice('n1'), notice('n2', { type: 'apikey_delete', read: true, expand: {} })],
      unreadCount: 1,
    });
    await renderAt('/rpc/endpoint');
    const user = userEvent.setup();
    const bell = screen.getByRole('button', { name: 'Notifications' });
    expect(bell).toHaveAccessibleDescription('1 unread notification');
    await user.click(bell);
    const preview = await screen.findByRole('dialog', { name: 'Notifications' });
    const items = within(within(preview).getByRole('list', { name: 'Latest notifications' }))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toHaveLength(2);
    expect(items[0]).toContain('(unread)');
    expect(items[1]).not.toContain('(unread)');
    const seeAll = within(preview).getByRole('link', { name: 'See all notifications' });
    expect(seeAll).toHaveAttribute('href', '/rpc/notifications');
    // Focus moved into the preview.
    await waitFor(() => expect(preview.contains(document.activeElement)).toBe(true));

    await user.click(seeAll);
    await waitFor(() =>
      expect(screen.getByTestId('where')).toHaveTextContent('/rpc/notifications'),
    );
    await waitFor(() => expect(bell).toHaveAttribute('aria-expanded', 'false'));
  });

  it('says when there is nothing new, and Escape returns to the bell', async () => {
    await renderAt('/rpc/endpoint');
    const user = userEvent.setup();
    const bell = screen.getByRole('button', { name: 'Notifications' });
    await user.click(bell);
    const preview = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(within(preview).getByText(/Nothing new/)).toBeInTheDocument();
    await waitFor(() => expect(preview.contains(document.activeElement)).toBe(true));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(bell).toHaveFocus());
    expect(bell).toHaveAttribute('aria-expanded', 'false');
  });
});

describe('dashboard layout (phone)', () => {
  it('hides the sidebar and opens the navigation in a drawer that closes on navigation', async () => {
    asPhone();
    await renderAt('/rpc/endpoint');
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Collapse sidebar' })).toBeNull();
    // The header keeps the user's name out of sight but in the button's name.
    const userButton = screen.getByRole('button', { name: 'User menu (Ada)' });
    expect(userButton).not.toHaveTextContent('Ada');

    const user = userEvent.setup();
    const open = screen.getByRole('button', { name: 'Open menu' });
    expect(open).toHaveAttribute('aria-expanded', 'false');
    await user.click(open);
    const drawer = await screen.findByRole('dialog', { name: 'Menu' });
    const nav = within(drawer).getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Endpoint' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await user.click(within(nav).getByRole('link', { name: 'Statistics' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/rpc/statistic'));
    await waitFor(() => expect(open).toHaveAttribute('aria-expanded', 'false'));
  });
});
