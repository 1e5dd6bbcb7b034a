/**
 * Everything around the router: server-data cache, Ant Design (its locale follows i18next; theme in theme.ts),
 * i18n, error boundary.
 */
import type { QueryClient } from '@tanstack/react-query';
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import type { ErrorInfo, ReactNode } from 'react';
import { Component, useEffect } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { LazyErrorScreen } from '../components/lazy-error-screen';
import { i18n } from '../lib/i18n';
import { startIconLabels } from '../lib/i18n-icons';
import { THEME } from './theme';

function LocalisedAntd({ children }: { children: ReactNode }) {
  const { i18n: instance } = useTranslation();
  // antd's own icons carry English names as labels; this hides or translates them (lib/i18n-icons.ts).
  useEffect(() => startIconLabels(), []);
  return (
    // autoInsertSpace off: antd would render "登录" as "登 录", which breaks its accessible name.
    <ConfigProvider
      locale={instance.language === 'zh' ? zhCN : enUS}
      theme={THEME}
      button={{ autoInsertSpace: false }}
    >
      <AntApp>{children}</AntApp>
    </ConfigProvider>
  );
}

type TBoundaryState = { error: unknown };

/** Last line of defence for errors outside the router (which has its own error screen). */
export class AppErrorBoundary extends Component<{ children: ReactNode }, TBoundaryState> {
  override state: TBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): TBoundaryState {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Unhandled error', error, info.componentStack);
  }

  override render() {
    if (this.state.error) {
      return (
        <LazyErrorScreen
          status={500}
          onBack={() => {
            this.setState({ error: null });
            window.location.assign('/');
          }}
        />
      );
    }
    return this.props.children;
  }
}

export function AppProviders({
  queryClient,
  children,
}: {
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <I18nextProvider i18n={i18n}>
      <LocalisedAntd>
        <AppErrorBoundary>
          <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
        </AppErrorBoundary>
      </LocalisedAntd>
    </I18nextProvider>
  );
}
