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

afterAll(async () => {
  // antd's static message / notification / Modal.confirm render in React roots of their own, which cleanup()
  // does not know; one still open when the file ends (a toast's close timer) would run React after the file's
  // jsdom is gone ("window is not defined", seen on a loaded machine). Close them, only where any were shown
  // (destroy() itself mounts antd's holder), and let the scheduler finish while window still exists.
  if (document.querySelector('.ant-message, .ant-notification, .ant-modal-root')) {
    message.destroy();
    notification.destroy();
    Modal.destroyAll();
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
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
