/**
 * "/": sign in with e-mail and password, a wallet or a third party (SPEC §4 login), then a two-factor code if on.
 * Drawn without antd (components/ui/): the page most visitors see first loads none of its code.
 */
import { ERROR_CODES } from '@rpc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { OtherSignInMethods } from '../../../components/sign-in/other-sign-in-methods';
import { useSignInFlow } from '../../../components/sign-in/use-sign-in-flow';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { PasswordField, TextField } from '../../../components/ui/fields';
import { useForm } from '../../../components/ui/use-form';
import { LocalizedLink, useLocalizedNavigate } from '../../../lib/locale-path';
import { RpcCallError } from '../../../lib/rpc-client';
import { getSafeRedirect } from '../../../lib/safe-redirect';
import { useLogin } from '../api/login';
import { authChecks, preloadAuthChecks } from '../utils/lazy-auth-checks';
import { usePlainAuthRules } from '../utils/plain-rules';
import { ResendConfirmMailButton } from './resend-confirm-mail-button';

type TLoginFormValues = { email: string; password: string };

const INITIAL: TLoginFormValues = { email: '', password: '' };

export function LoginPage() {
  const { t } = useTranslation('auth');
  const rules = usePlainAuthRules<TLoginFormValues>();
  const form = useForm<TLoginFormValues>({
    name: 'login',
    initialValues: INITIAL,
    rules: { email: rules.email, password: rules.currentPassword },
  });
  const navigate = useLocalizedNavigate();
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const loginMutation = useLogin();
  const [isSigningIn, setIsSigningIn] = useState(false);
  const [unconfirmedEmail, setUnconfirmedEmail] = useState<string | null>(null);
  const flow = useSignInFlow({
    onSignedIn: () =>
      navigate(getSafeRedirect(searchParams.get('redirect')) ?? '/rpc/endpoint', { replace: true }),
    // A third-party sign-in whose two-factor step ended comes back here to start again.
    hasEndedBefore: (location.state as { signInEnded?: boolean } | null)?.signInEnded === true,
  });

  async function onFinish(values: TLoginFormValues) {
    setUnconfirmedEmail(null);
    setIsSigningIn(true);
    try {
      const email = (await authChecks())?.parseEmail(values.email) ?? values.email;
      try {
        const result = await loginMutation.mutateAsync({ email, password: values.password });
        await flow.finish(result);
      } catch (error) {
        // The client has shown the popup already; the unconfirmed case also gets a way out here.
        if (error instanceof RpcCallError && error.code === ERROR_CODES.EMAIL_NOT_CONFIRMED) {
          setUnconfirmedEmail(email);
        }
      }
    } finally {
      setIsSigningIn(false);
    }
  }

  if (flow.twoFactorStep) return <AuthCard title={t('login.title')}>{flow.twoFactorStep}</AuthCard>;

  return (
    <AuthCard title={t('login.title')}>
      {flow.endedNotice}
      {unconfirmedEmail !== null && (
        <Alert
          type="warning"
          role="alert"
          title={t('login.notConfirmed.title')}
          description={
            <div className="ui-stack">
              <span>{t('login.notConfirmed.description', { email: unconfirmedEmail })}</span>
              <div className="ui-row">
                <ResendConfirmMailButton email={unconfirmedEmail} />
                <LocalizedLink
                  to={`/register-confirm?email=${encodeURIComponent(unconfirmedEmail)}`}
                >
                  {t('login.notConfirmed.link')}
                </LocalizedLink>
              </div>
            </div>
          }
        />
      )}
      <form name="login" noValidate onChange={preloadAuthChecks} onSubmit={form.onSubmit(onFinish)}>
        <fieldset className="ui-fieldset" disabled={isSigningIn}>
          <TextField
            field={form.field('email')}
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            autoFocus
            placeholder={t('fields.emailPlaceholder')}
          />
          <PasswordField
            field={form.field('password')}
            label={t('fields.password')}
            autoComplete="current-password"
          />
          <div style={{ textAlign: 'right', marginTop: -8, marginBottom: 16 }}>
            <LocalizedLink to="/reset-password">{t('login.forgot')}</LocalizedLink>
          </div>
          <Button variant="primary" htmlType="submit" isBlock isLoading={isSigningIn}>
            {t('login.submit')}
          </Button>
        </fieldset>
      </form>
      <OtherSignInMethods onResult={flow.finish} />
      <p className="ui-paragraph" style={{ marginTop: 24, marginBottom: 0, textAlign: 'center' }}>
        {t('login.noAccount')} <LocalizedLink to="/register">{t('login.register')}</LocalizedLink>
      </p>
    </AuthCard>
  );
}
