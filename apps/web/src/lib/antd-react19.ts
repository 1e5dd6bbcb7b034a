/**
 * Ant Design 5's static message/notification/Modal render with ReactDOM.render, which React 19 removed.
 * This is what @ant-design/v5-patch-for-react-19 does, without the extra dependency. Import once at start.
 */
import { unstableSetRender } from 'antd';
import type { Root } from 'react-dom/client';
import { createRoot } from 'react-dom/client';

type TContainer = (Element | DocumentFragment) & { _reactRoot?: Root };

unstableSetRender((node, container) => {
  const host = container as TContainer;
  host._reactRoot ??= createRoot(host);
  const root = host._reactRoot;
  root.render(node);
  return async () => {
    // Unmounting synchronously inside a React render is not allowed; wait a tick.
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
    delete host._reactRoot;
  };
});
