/** The lazy way to antd's popups: a popup asked for before their code is in still opens, unless closed meanwhile. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as Popups from './popups';

type TPopupsModule = typeof Popups;

/** A fresh copy of lib/popups.ts (its loaded state is per module), with antd-popups replaced by `fake`. */
async function freshPopups(fake: () => object): Promise<TPopupsModule> {
  vi.resetModules();
  vi.doMock('./antd-popups', fake);
  return import('./popups');
}

function fakeAntd() {
  return {
    message: { open: vi.fn(), destroy: vi.fn() },
    notification: { destroy: vi.fn() },
    Modal: { destroyAll: vi.fn() },
  };
}

afterEach(() => {
  vi.doUnmock('./antd-popups');
  document.getElementById('plain-popups')?.remove();
});

describe('showPopup', () => {
  it('opens the message once the code is in, with its kind, text and duration', async () => {
    const antd = fakeAntd();
    const popups = await freshPopups(() => antd);
    popups.showPopup('error', 'Wrong e-mail or password.', 5);
    expect(antd.message.open).not.toHaveBeenCalled();
    await vi.waitFor(() =>
      expect(antd.message.open).toHaveBeenCalledWith({
        type: 'error',
        content: 'Wrong e-mail or password.',
        duration: 5,
      }),
    );
    // Loaded: the next one opens at once.
    popups.showPopup('warning', 'Too many attempts.', 5);
    expect(antd.message.open).toHaveBeenCalledTimes(2);
  });

  it('does not open a popup that was closed while its code loaded', async () => {
    const antd = fakeAntd();
    const popups = await freshPopups(() => antd);
    popups.showPopup('error', 'Wrong e-mail or password.', 5);
    popups.closeMessages();
    await popups.loadPopups();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(antd.message.open).not.toHaveBeenCalled();
  });

  it('says the same in a plain live region when the code cannot load', async () => {
    const popups = await freshPopups(() => {
      throw new Error('Failed to fetch dynamically imported module');
    });
    popups.showPopup('error', 'Network Error', 5);
    const region = await vi.waitFor(() => {
      const found = document.getElementById('plain-popups');
      if (!found) throw new Error('no region yet');
      return found;
    });
    expect(region).toHaveAttribute('role', 'alert');
    expect(region).toHaveTextContent('Network Error');
    popups.closeMessages();
    expect(region).toBeEmptyDOMElement();
  });
});

describe('closeAllPopups', () => {
  it('closes messages, notifications and dialogs once loaded, and does nothing before', async () => {
    const antd = fakeAntd();
    const popups = await freshPopups(() => antd);
    popups.closeAllPopups();
    expect(antd.message.destroy).not.toHaveBeenCalled();
    await popups.loadPopups();
    popups.closeAllPopups();
    expect(antd.message.destroy).toHaveBeenCalledOnce();
    expect(antd.notification.destroy).toHaveBeenCalledOnce();
    expect(antd.Modal.destroyAll).toHaveBeenCalledOnce();
  });
});
