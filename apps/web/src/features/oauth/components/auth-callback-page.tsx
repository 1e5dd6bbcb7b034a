/**
 * /auth/callback: the provider sends the browser back here with ?code&state. Only a sign-in this tab started is
 * finished (login CSRF guard); the identity then signs in (a two-factor code if on), or, when it is new, the user
 * is asked whether to create an account with it.
 */
import type { TSignInResult } from '@rpc/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { LoadingResult, StatusResult } from '../../../components/status-result';
import { useSignInFlow } from '../../../components/sign-in/use-sign-in-flow';
import { getPublicConfigQueryOptions } from '../../../lib/get-public-config';
import { currentLang } from '../../../lib/i18n';
import { LocalizedLink, useLocalizedNavigate } from '../../../lib/locale-path';
import { takeOauthAttempt } from '../../../lib/oauth-attempt';
import { describeRpcError, isCancelledError } from '../../../lib/rpc-client';
import { checkOauthCode } from '../api/check-oauth-code';
import { oauthRegister } from '../api/oauth-register';
import { providerName, readCallbackQuery } from '../utils/callback-query';

type TRegistration = {
  ticket: string;
  provider: string;
  email: string | null;
  emailTaken: boolean;
};

type TView =
  | { kind: 'checking' }
  | { kind: 'provider-error'; provider: string | null; error: string }
  | { kind: 'foreign' }
  | { kind: 'failed'; message: string }
  | { kind: 'registration'; registration: TRegistration };

export function AuthCallbackPage() {
  const { t } = useTranslation('oauth');
  const [searchParams] = useSearchParams();
  const navigate = useLocalizedNavigate();
  const providers = useQuery(getPublicConfigQueryOptions()).data?.oauthProviders ?? [];
  const [view, setView] = useState<TView>({ kind: 'checking' });
  const hasStarted = useRef(false);
  const flow = useSignInFlow({
    onSignedIn: () => navigate('/rpc/endpoint', { replace: true }),
    // Back to the first step, which for a third-party sign-in is the sign-in page.
    onEnded: () => navigate('/', { replace: true, state: { signInEnded: true } }),
  });

  async function finishSignIn(result: TSignInResult) {
    try {
      await flow.finish(result);
    } catch (error) {
      if (!isCancelledError(error)) setView({ kind: 'failed', message: describeRpcError(error) });
    }
  }

  useEffect(() => {
    // The code and the stored state are good once: never redeemed twice (React runs effects twice in dev).
    if (hasStarted.current) return;
    hasStarted.current = true;
    const query = readCallbackQuery(searchParams);
    const attempt = takeOauthAttempt('login', query.state);
    if (query.error) {
      setView({ kind: 'provider-error', provider: attempt?.provider ?? null, error: query.error });
      return;
    }
    if (!attempt || !query.code) {
      setView({ kind: 'foreign' });
      return;
    }
    void (async () => {
      try {
        const answer = await checkOauthCode({
          provider: attempt.provider,
          code: query.code!,
          state: attempt.state,
        });
        if (answer.signIn) await finishSignIn(answer.signIn);
        else if (answer.registration)
          setView({ kind: 'registration', registration: answer.registration });
        else setView({ kind: 'failed', message: describeRpcError(null) });
      } catch (error) {
        if (!isCancelledError(error)) setView({ kind: 'failed', message: describeRpcError(error) });
      }
    })();
    // Runs once, for the URL the provider sent the browser to.
  }, []);

  if (flow.twoFactorStep)
    return <AuthCard title={t('authCallback.title')}>{flow.twoFactorStep}</AuthCard>;

  const signInLink = <LocalizedLink to="/">{t('common.backToSignIn')}</LocalizedLink>;
  switch (view.kind) {
    case 'checking':
      return <LoadingResult label={t('authCallback.checking')} />;
    case 'foreign':
      return (
        <StatusResult
          status="warning"
          title={t('authCallback.foreign.title')}
          description={t('authCallback.foreign.description')}
        >
          {signInLink}
        </StatusResult>
      );
    case 'provider-error': {
      const name = providerName(view.provider, providers) ?? t('common.theProvider');
      const isCancelled = view.error === 'access_denied';
      return (
        <StatusResult
          status={isCancelled ? 'info' : 'error'}
          title={
            isCancelled
              ? t('providerError.cancelledTitle')
              : t('providerError.failedTitle', { provider: name })
          }
          description={
            isCancelled
              ? t('providerError.cancelled', { provider: name })
              : t('providerError.failed', { provider: name, error: view.error })
          }
        >
          {signInLink}
        </StatusResult>
      );
    }
    case 'failed':
      return (
        <StatusResult
          status="error"
          title={t('authCallback.failedTitle')}
          description={view.message}
        >
          <Flex gap={16} justify="center" wrap>
            <LocalizedLink to="/third-party/login">{t('common.tryAgain')}</LocalizedLink>
            {signInLink}
          </Flex>
        </StatusResult>
      );
    case 'registration':
      return (
        <RegistrationOffer
          registration={view.registration}
          name={providerName(view.registration.provider, providers) ?? view.registration.provider}
          onCreated={finishSignIn}
          onCancel={() => navigate('/', { replace: true })}
        />
      );
  }
}

type TRegistrationOfferProps = {
  registration: TRegistration;
  name: string;
  onCreated: (result: TSignInResult) => Promise<void>;
  onCancel: () => void;
};

function RegistrationOffer({ registration, name, onCreated, onCancel }: TRegistrationOfferProps) {
  const { t } = useTranslation('oauth');
  const [isCreating, setIsCreating] = useState(false);
  const { email } = registration;

  async function onCreate() {
    setIsCreating(true);
    try {
      // A new account is uninitialised: the guard takes it to /first-login.
      await onCreated(await oauthRegister(registration.ticket, currentLang()));
    } catch {
      // The client has shown the popup (an expired ticket, a limit); the user may try again or cancel.
    } finally {
      setIsCreating(false);
    }
  }

  return (
    <AuthCard
      title={
        email
          ? t('register.titleWithEmail', { provider: name, email })
          : t('register.title', { provider: name })
      }
    >
      <Typography.Paragraph>{t('register.description', { provider: name })}</Typography.Paragraph>
      {registration.emailTaken && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 24 }}
          message={t('register.emailTakenTitle', { email: email ?? '' })}
          description={
            <>
              {t('register.emailTaken', { provider: name })}{' '}
              <LocalizedLink to="/">{t('register.signInInstead')}</LocalizedLink>
            </>
          }
        />
      )}
      <Flex gap={8} wrap>
        <Button type="primary" loading={isCreating} onClick={() => void onCreate()}>
          {t('register.create')}
        </Button>
        <Button disabled={isCreating} onClick={onCancel}>
          {t('register.cancel')}
        </Button>
      </Flex>
    </AuthCard>
  );
}
