import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { Modal, message, notification } from 'antd';
import { afterAll, afterEach } from 'vitest';
import '../lib/antd-react19';

// Lazy pages load on first use; give findBy/waitFor room on a cold, busy machine.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
});

// Timers the file's code started and that have not run yet. A toast's close timer outlives the toast: rc-notification
// clears it on unmount only when pauseOnHover is set, which antd's message does not set, so destroy() below does not
// stop it, and it would call React's setState after the file's jsdom is gone ("window is not defined" from
// rc-notification's Notice, an unhandled error that fails the run; seen in CI on a loaded machine).
const pendingTimers = new Set<ReturnType<typeof setTimeout>>();
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
globalThis.setTimeout = Object.assign(
  (callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const timer = realSetTimeout(() => {
      pendingTimers.delete(timer);
      callback(...args);
    }, ms);
    pendingTimers.add(timer);
    return timer;
  },
  realSetTimeout,
) as typeof setTimeout;
globalThis.clearTimeout = ((timer?: ReturnType<typeof setTimeout>) => {
  if (timer !== undefined) pendingTimers.delete(timer);
  realClearTimeout(timer);
}) as typeof clearTimeout;

afterAll(async () => {
  // antd's static message / notification / Modal.confirm render in React roots of their own, which cleanup()
  // does not know. Close them, only where any were shown (destroy() itself mounts antd's holder), and let the
  // scheduler finish while window still exists; then stop every timer still waiting, since none of them may run
  // once the file is over.
  if (document.querySelector('.ant-message, .ant-notification, .ant-modal-root')) {
    message.destroy();
    notification.destroy();
    Modal.destroyAll();
  }
  await new Promise((resolve) => realSetTimeout(resolve, 100));
  for (const timer of pendingTimers) realClearTimeout(timer);
  pendingTimers.clear();
});

// jsdom lacks these; Ant Design's responsive helpers call them.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
