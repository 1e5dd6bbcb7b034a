/**
 * /bind/callback: the provider sends the browser back here after the user asked, from the profile, to bind it.
 * Only a binding this tab started is finished; then back to the profile with the outcome.
 */
import { message } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LoadingResult, StatusResult } from '../../../components/status-result';
import { useFetchPublicConfig } from '../../../lib/get-public-config';
import { LocalizedLink, useLocalizedNavigate } from '../../../lib/locale-path';
import { takeOauthAttempt } from '../../../lib/oauth-attempt';
import { describeRpcError, isCancelledError } from '../../../lib/rpc-client';
import { refreshUser, useSession } from '../../../lib/session';
import { bindOauth } from '../api/bind-oauth';
import { providerName, readCallbackQuery } from '../utils/callback-query';

type TView =
  | { kind: 'binding' }
  | { kind: 'signed-out' }
  | { kind: 'foreign' }
  | { kind: 'provider-error'; name: string | null; error: string }
  | { kind: 'failed'; name: string | null; message: string };

export function BindCallbackPage() {
  const { t } = useTranslation('oauth');
  const [searchParams] = useSearchParams();
  const navigate = useLocalizedNavigate();
  const fetchConfig = useFetchPublicConfig();
  const hasToken = useSession((state) => state.token !== null);
  const [view, setView] = useState<TView>({ kind: 'binding' });
  const hasStarted = useRef(false);

  useEffect(() => {
    // The code and the stored state are good once (React runs effects twice in dev).
    if (hasStarted.current) return;
    hasStarted.current = true;
    const query = readCallbackQuery(searchParams);
    const attempt = takeOauthAttempt('bind', query.state);
    const nameOf = async (id: string | null) => {
      const config = await fetchConfig().catch(() => null);
      return providerName(id, config?.oauthProviders ?? []);
    };
    void (async () => {
      if (query.error) {
        setView({
          kind: 'provider-error',
          name: await nameOf(attempt?.provider ?? null),
          error: query.error,
        });
        return;
      }
      if (!hasToken) {
        setView({ kind: 'signed-out' });
        return;
      }
      if (!attempt || !query.code) {
        setView({ kind: 'foreign' });
        return;
      }
      try {
        await bindOauth({ provider: attempt.provider, code: query.code, state: attempt.state });
      } catch (error) {
        // The client has shown the popup; the screen keeps the reason.
        if (isCancelledError(error)) return;
        setView({
          kind: 'failed',
          name: await nameOf(attempt.provider),
          message: describeRpcError(error),
        });
        return;
      }
      await refreshUser().catch(() => undefined);
      void message.success(t('bindCallback.bound', { provider: await nameOf(attempt.provider) }));
      navigate('/rpc/profile', { replace: true });
    })();
    // Runs once, for the URL the provider sent the browser to.
  }, []);

  const profileLink = <LocalizedLink to="/rpc/profile">{t('common.backToProfile')}</LocalizedLink>;
  switch (view.kind) {
    case 'binding':
      return <LoadingResult label={t('bindCallback.binding')} />;
    case 'signed-out':
      return (
        <StatusResult
          status="warning"
          title={t('bindCallback.signedOut.title')}
          description={t('bindCallback.signedOut.description')}
        >
          <LocalizedLink to="/">{t('common.backToSignIn')}</LocalizedLink>
        </StatusResult>
      );
    case 'foreign':
      return (
        <StatusResult
          status="warning"
          title={t('bindCallback.foreign.title')}
          description={t('bindCallback.foreign.description')}
        >
          {profileLink}
        </StatusResult>
      );
    case 'provider-error': {
      const name = view.name ?? t('common.theProvider');
      const isCancelled = view.error === 'access_denied';
      return (
        <StatusResult
          status={isCancelled ? 'info' : 'error'}
          title={
            isCancelled
              ? t('bindCallback.cancelledTitle')
              : t('bindCallback.failedTitle', { provider: name })
          }
          description={
            isCancelled
              ? t('providerError.cancelled', { provider: name })
              : t('providerError.failed', { provider: name, error: view.error })
          }
        >
          {profileLink}
        </StatusResult>
      );
    }
    case 'failed':
      return (
        <StatusResult
          status="error"
          title={t('bindCallback.failedTitle', { provider: view.name ?? t('common.theProvider') })}
          description={view.message}
        >
          {profileLink}
        </StatusResult>
      );
  }
}
