/**
 * The sign-in flow hands over to the page (onSignedIn) only while the user is still where the sign-in started:
 * the guard sends a signed-in visitor on as soon as the session is in the store, and a user who has clicked on
 * while the after-login steps ran must not be pulled back.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { signIn } from '../../lib/session';
import { useSignInFlow } from './use-sign-in-flow';

vi.mock('../../lib/session', () => ({ signIn: vi.fn() }));

const signInMock = vi.mocked(signIn);

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

function SignInPage({ onSignedIn }: { onSignedIn: () => void }) {
  const flow = useSignInFlow({ onSignedIn });
  return (
    <>
      <button
        type="button"
        onClick={() => void flow.finish({ token: 't', expiresAt: 0, twoFactorRequired: false })}
      >
        sign in
      </button>
      <Link to="/?tab=wallet">same page, other tab</Link>
      <Link to="/rpc/notifications">notifications</Link>
    </>
  );
}

function renderFlow(onSignedIn: () => void) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <SignInPage onSignedIn={onSignedIn} /> },
      { path: '/rpc/notifications', element: <p>notifications page</p> },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

beforeAll(async () => {
  await initI18n('en');
});

afterEach(() => {
  signInMock.mockReset();
});

describe('useSignInFlow', () => {
  it('hands over to the page once the session is in', async () => {
    const done = deferred();
    signInMock.mockReturnValue(done.promise);
    const onSignedIn = vi.fn();
    renderFlow(onSignedIn);

    await userEvent.click(screen.getByRole('button', { name: 'sign in' }));
    expect(signInMock).toHaveBeenCalledWith('t');
    expect(onSignedIn).not.toHaveBeenCalled();
    await act(async () => done.resolve());
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledTimes(1));
  });

  it('leaves a user who went to another page while signing in where they are', async () => {
    const done = deferred();
    signInMock.mockReturnValue(done.promise);
    const onSignedIn = vi.fn();
    const router = renderFlow(onSignedIn);

    await userEvent.click(screen.getByRole('button', { name: 'sign in' }));
    await userEvent.click(screen.getByRole('link', { name: 'notifications' }));
    expect(await screen.findByText('notifications page')).toBeTruthy();
    await act(async () => done.resolve());
    // Give the flow's continuation its turn before checking that it did nothing.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(onSignedIn).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/rpc/notifications');
  });

  it('leaves a user who moved within the sign-in page alone too', async () => {
    const done = deferred();
    signInMock.mockReturnValue(done.promise);
    const onSignedIn = vi.fn();
    const router = renderFlow(onSignedIn);

    await userEvent.click(screen.getByRole('button', { name: 'sign in' }));
    await userEvent.click(screen.getByRole('link', { name: 'same page, other tab' }));
    await waitFor(() => expect(router.state.location.search).toBe('?tab=wallet'));
    await act(async () => done.resolve());
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(onSignedIn).not.toHaveBeenCalled();
  });
});
