/**
 * What antd's components need around them: its theme (antd-theme.ts), its locale following i18next, and App for
 * the contextual message / notification / modal. Only around what uses antd: the dashboard layout, the public pages
 * other than sign-in and sign-up, the error screen; the pages drawn without antd (components/ui/) skip it.
 */
import '../lib/antd-react19';
// antd's component CSS made at build time (antd-styles-plugin.ts); it loads with this file, before antd's first render.
import 'virtual:antd-styles.css';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { startIconLabelsOnce } from '../lib/i18n-icons';
import { loadPopups } from '../lib/popups';
import { BUTTON_CONFIG, THEME } from './antd-theme';

export function AntdScope({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  useEffect(() => {
    // antd's own icons carry English names as labels; this hides or translates them (lib/i18n-icons.ts).
    startIconLabelsOnce();
    // A page with antd is a page that may show popups: their code comes now rather than with the first one.
    loadPopups().catch(() => undefined);
  }, []);
  return (
    <ConfigProvider
      locale={i18n.language === 'zh' ? zhCN : enUS}
      theme={THEME}
      button={BUTTON_CONFIG}
    >
      <AntApp>{children}</AntApp>
    </ConfigProvider>
  );
}
