/**
 * Everything around the router: server-data cache, i18n, error boundary. Not antd: the pages that use it get its
 * providers with their code (components/antd-scope.tsx), so the sign-in page loads none of it.
 */
import type { QueryClient } from '@tanstack/react-query';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ErrorInfo, ReactNode } from 'react';
import { Component } from 'react';
import { I18nextProvider } from 'react-i18next';
import { LazyErrorScreen } from '../components/lazy-error-screen';
import { i18n } from '../lib/i18n';

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
      <AppErrorBoundary>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AppErrorBoundary>
    </I18nextProvider>
  );
}
