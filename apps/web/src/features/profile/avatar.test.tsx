/**
 * The profile's avatar card and the header's avatar. The network boundaries are faked: callRpc (checked against the
 * contract by test/fake-api.ts) and XMLHttpRequest, which the upload uses for its progress.
 */
import type { TMethodName, TRpcError, TUploadAvatarResult, TUserProfile } from '@rpc/contract';
import { ERROR_CATALOGUE, ERROR_CODES } from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UserMenu } from '../../components/user-menu';
import { i18n, initI18n } from '../../lib/i18n';
import type * as RpcClientModule from '../../lib/rpc-client';
import { callRpc } from '../../lib/rpc-client';
import { useSession } from '../../lib/session';
import { fakeRpc, type TFakeHandlers } from '../../test/fake-api';
import { makePublicConfig, makeUser } from '../../test/fixtures';
import { ProfilePage } from './components/profile-page';
import { initialsOf } from './utils/initials';

vi.mock('../../lib/rpc-client', async (importOriginal) => ({
  ...(await importOriginal<typeof RpcClientModule>()),
  callRpc: vi.fn(),
}));

const rpc = vi.mocked(callRpc);
const AVATAR_URL = '/avatar/0b6f2a4e-5a1c-4d3e-9f00-1234567890ab?v=0123456789ab';
const user = makeUser({ nickname: 'Ada Lovelace' });

/** What the page reads on its own; the other sections are tested in profile.test.tsx. */
const PAGE_READS: TFakeHandlers = {
  hub_getConfig: () => makePublicConfig(),
  hub_getTwoFactorStatus: () => ({ enabled: false, enabledAt: null, backupCodesLeft: 0 }),
  hub_getSessions: () => ({ list: [] }),
};

function fakeApi(handlers: TFakeHandlers) {
  rpc.mockImplementation(fakeRpc(() => ({ ...PAGE_READS, ...handlers })));
}

function calls(method: TMethodName) {
  return rpc.mock.calls.filter(([name]) => name === method);
}

// --- A fake XMLHttpRequest: records the request; the test answers it ---

type TAnswer = { status?: number; body: { result: TUploadAvatarResult } | { error: TRpcError } };

class FakeXhr {
  static requests: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  timeout = 0;
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.requests.push(this);
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
  answer({ status = 200, body }: TAnswer) {
    this.status = status;
    this.responseText = JSON.stringify({ id: null, ...body });
    this.onload?.();
  }
}

function catalogueError(code: keyof typeof ERROR_CATALOGUE): TRpcError {
  return { code, message: ERROR_CATALOGUE[code].en, messageZh: ERROR_CATALOGUE[code].zh };
}

function renderProfile(signedIn: TUserProfile = user) {
  useSession.setState({ token: 'tok', user: signedIn, loginType: 'personal', teamId: null });
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/rpc/profile']}>
        <Routes>
          <Route path="/rpc/profile" element={<ProfilePage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

function fileInput(container: HTMLElement): HTMLInputElement {
  const input = container.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  return input;
}

const png = () =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'me.png', { type: 'image/png' });

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(async () => {
  rpc.mockReset();
  FakeXhr.requests = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  Cookies.set('token', 'session-token');
  await act(() => i18n.changeLanguage('en'));
});

afterEach(() => {
  vi.unstubAllGlobals();
  Cookies.remove('token');
});

describe('initialsOf', () => {
  it.each([
    ['Ada Lovelace', 'AL'],
    ['ada', 'A'],
    ['ada.lovelace@example.com', 'AL'],
    ['  grace   hopper ', 'GH'],
    ['张三', '张'],
    ['', '?'],
  ])('%j → %s', (name, initials) => {
    expect(initialsOf(name)).toBe(initials);
  });
});

describe('avatar on the profile page', () => {
  it('shows the initials and an upload button when there is no avatar', () => {
    fakeApi({});
    renderProfile();
    expect(screen.getByRole('heading', { level: 2, name: 'Avatar' })).toBeInTheDocument();
    expect(screen.getByText('AL')).toBeInTheDocument();
    expect(screen.getByText(/No avatar yet/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload avatar' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove avatar' })).not.toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /Avatar of/ })).not.toBeInTheDocument();
  });

  it('uploads with the session token, shows progress, then the new avatar', async () => {
    fakeApi({ hub_getUserProfile: () => ({ ...user, avatar: AVATAR_URL }) });
    const { container } = renderProfile();
    expect(fileInput(container)).toHaveAttribute('accept', expect.stringContaining('image/webp'));
    await userEvent.upload(fileInput(container), png());

    await waitFor(() => expect(FakeXhr.requests).toHaveLength(1));
    const request = FakeXhr.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/upload/avatar');
    expect(request.headers.authorization).toBe('Bearer session-token');
    expect(request.headers['x-team-id']).toBeUndefined();
    const sent = request.body?.get('file');
    expect(sent).toBeInstanceOf(File);
    expect((sent as File).name).toBe('me.png');

    act(() => request.progress(40, 100));
    const bar = await screen.findByRole('progressbar', { name: 'Upload progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '40');

    act(() => request.answer({ body: { result: { avatar: AVATAR_URL } } }));
    const image = await screen.findByRole('img', { name: 'Avatar of Ada Lovelace' });
    expect(image).toHaveAttribute('src', AVATAR_URL);
    expect(calls('hub_getUserProfile')).toHaveLength(1);
    expect(useSession.getState().user?.avatar).toBe(AVATAR_URL);
    await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument());
    expect(await screen.findByRole('button', { name: 'Change avatar' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the server’s refusal as the catalogue words it, in English and in Chinese', async () => {
    fakeApi({});
    const { container } = renderProfile();
    await userEvent.upload(fileInput(container), png());
    await waitFor(() => expect(FakeXhr.requests).toHaveLength(1));
    act(() =>
      FakeXhr.requests[0]!.answer({
        body: { error: catalogueError(ERROR_CODES.AVATAR_UNSUPPORTED_TYPE) },
      }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Only PNG, JPEG and WebP images can be used as an avatar.',
    );
    expect(calls('hub_getUserProfile')).toHaveLength(0);

    await act(() => i18n.changeLanguage('zh'));
    expect(screen.getByRole('alert')).toHaveTextContent('头像仅支持 PNG、JPEG 和 WebP 图片。');
  });

  it('words a throttled upload with the time left', async () => {
    fakeApi({});
    const { container } = renderProfile();
    await userEvent.upload(fileInput(container), png());
    await waitFor(() => expect(FakeXhr.requests).toHaveLength(1));
    act(() =>
      FakeXhr.requests[0]!.answer({
        body: {
          error: {
            ...catalogueError(ERROR_CODES.RATE_LIMITED),
            limitType: 'type3',
            attemptsExpireAt: Date.now() + 30 * 60_000,
          },
        },
      }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /Too many requests\. Please try again in 30 minutes/,
    );
  });

  it('says Network Error when the upload never reaches the server', async () => {
    fakeApi({});
    const { container } = renderProfile();
    await userEvent.upload(fileInput(container), png());
    await waitFor(() => expect(FakeXhr.requests).toHaveLength(1));
    act(() => FakeXhr.requests[0]!.onerror?.());
    expect(await screen.findByRole('alert')).toHaveTextContent(/network error/i);
  });

  it.each([
    [
      'a file over 5 MB',
      () => new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' }),
      'The image is too large: at most 5 MB.',
    ],
    [
      'a GIF',
      () => new File([new Uint8Array([0x47, 0x49, 0x46])], 'cat.gif', { type: 'image/gif' }),
      'Only PNG, JPEG and WebP images can be used as an avatar.',
    ],
  ])('refuses %s before sending anything', async (_, make, text) => {
    fakeApi({});
    const { container } = renderProfile();
    const events = userEvent.setup({ applyAccept: false });
    await events.upload(fileInput(container), make());
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(FakeXhr.requests).toHaveLength(0);
  });

  it('removes the avatar only after the confirmation', async () => {
    let current: TUserProfile = { ...user, avatar: AVATAR_URL };
    fakeApi({
      hub_removeAvatar: () => {
        current = { ...current, avatar: null };
        return { success: true };
      },
      hub_getUserProfile: () => current,
    });
    renderProfile(current);
    expect(screen.getByRole('img', { name: 'Avatar of Ada Lovelace' })).toHaveAttribute(
      'src',
      AVATAR_URL,
    );

    await userEvent.click(screen.getByRole('button', { name: 'Remove avatar' }));
    expect(
      await screen.findByText('Remove your avatar? Your initials will be shown instead.'),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(calls('hub_removeAvatar')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Remove avatar' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(calls('hub_removeAvatar')).toHaveLength(1));
    expect(await screen.findByText(/No avatar yet/)).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /Avatar of/ })).not.toBeInTheDocument();
    expect(useSession.getState().user?.avatar).toBeNull();
  });
});

describe('avatar in the header', () => {
  function renderMenu(signedIn: TUserProfile) {
    useSession.setState({ token: 'tok', user: signedIn, loginType: 'personal', teamId: null });
    return render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <header>
            <UserMenu />
          </header>
        </MemoryRouter>
      </QueryClientProvider>,
    );
  }

  it('shows the avatar image in the user menu button when set', () => {
    const { container } = renderMenu({ ...user, avatar: AVATAR_URL });
    const button = screen.getByRole('button', { name: 'User menu (Ada Lovelace)' });
    const image = container.querySelector('header img');
    expect(image).toHaveAttribute('src', AVATAR_URL);
    expect(button).toContainElement(image as HTMLElement);
    // Decoration: the button's label already says whose menu it is.
    expect(image).toHaveAttribute('alt', '');
  });

  it('shows the plain icon without an avatar', () => {
    const { container } = renderMenu(user);
    expect(screen.getByRole('button', { name: 'User menu (Ada Lovelace)' })).toBeInTheDocument();
    expect(container.querySelector('header img')).toBeNull();
  });
});
