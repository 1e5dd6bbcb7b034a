/** "/": sign in with e-mail and password, a wallet or a third party (SPEC §4 login), then a two-factor code if on. */
import { Alert, Button, Form, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { ERROR_CODES } from '@rpc/contract';
import { OtherSignInMethods } from '../../../components/sign-in/other-sign-in-methods';
import { useSignInFlow } from '../../../components/sign-in/use-sign-in-flow';
import { LocalizedLink, useLocalizedNavigate } from '../../../lib/locale-path';
import { RpcCallError } from '../../../lib/rpc-client';
import { useLogin } from '../api/login';
import { useAuthRules } from '../utils/form-rules';
import { parseEmail } from '../utils/query-params';
import { getSafeRedirect } from '../../../lib/safe-redirect';
import { AuthCard } from '../../../components/auth-card';
import { ResendConfirmMailButton } from './resend-confirm-mail';

type TLoginFormValues = { email: string; password: string };

export function LoginPage() {
  const { t } = useTranslation('auth');
  const rules = useAuthRules();
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
    const email = parseEmail(values.email) ?? values.email;
    setUnconfirmedEmail(null);
    setIsSigningIn(true);
    try {
      const result = await loginMutation.mutateAsync({ email, password: values.password });
      await flow.finish(result);
    } catch (error) {
      // The client has shown the popup already; the unconfirmed case also gets a way out here.
      if (error instanceof RpcCallError && error.code === ERROR_CODES.EMAIL_NOT_CONFIRMED) {
        setUnconfirmedEmail(email);
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
          showIcon
          style={{ marginBottom: 24 }}
          message={t('login.notConfirmed.title')}
          description={
            <Space direction="vertical" size="small">
              <span>{t('login.notConfirmed.description', { email: unconfirmedEmail })}</span>
              <Space wrap>
                <ResendConfirmMailButton email={unconfirmedEmail} />
                <LocalizedLink
                  to={`/register-confirm?email=${encodeURIComponent(unconfirmedEmail)}`}
                >
                  {t('login.notConfirmed.link')}
                </LocalizedLink>
              </Space>
            </Space>
          }
        />
      )}
      <Form<TLoginFormValues>
        name="login"
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        disabled={isSigningIn}
      >
        <Form.Item name="email" label={t('fields.email')} rules={rules.email}>
          <Input
            type="email"
            autoComplete="email"
            autoFocus
            placeholder={t('fields.emailPlaceholder')}
          />
        </Form.Item>
        <Form.Item name="password" label={t('fields.password')} rules={rules.currentPassword}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <div style={{ textAlign: 'right', marginTop: -8, marginBottom: 16 }}>
          <LocalizedLink to="/reset-password">{t('login.forgot')}</LocalizedLink>
        </div>
        <Button type="primary" htmlType="submit" block loading={isSigningIn}>
          {t('login.submit')}
        </Button>
      </Form>
      <OtherSignInMethods onResult={flow.finish} />
      <Typography.Paragraph style={{ marginTop: 24, marginBottom: 0, textAlign: 'center' }}>
        {t('login.noAccount')} <LocalizedLink to="/register">{t('login.register')}</LocalizedLink>
      </Typography.Paragraph>
    </AuthCard>
  );
}
