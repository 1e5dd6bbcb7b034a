/** "/": sign in with e-mail and password (SPEC §4 login). */
import { Alert, Button, Form, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ERROR_CODES } from '@rpc/contract';
import { LocalizedLink, useLocalizedNavigate } from '../../../lib/locale-path';
import { RpcCallError } from '../../../lib/rpc-client';
import { signIn } from '../../../lib/session';
import { useLogin } from '../api/login';
import { useAuthRules } from '../utils/form-rules';
import { parseEmail } from '../utils/query-params';
import { getSafeRedirect } from '../../../lib/safe-redirect';
import { AuthCard } from './auth-card';
import { ResendConfirmMailButton } from './resend-confirm-mail';

type TLoginFormValues = { email: string; password: string };

export function LoginPage() {
  const { t } = useTranslation('auth');
  const rules = useAuthRules();
  const navigate = useLocalizedNavigate();
  const [searchParams] = useSearchParams();
  const loginMutation = useLogin();
  const [isSigningIn, setIsSigningIn] = useState(false);
  const [unconfirmedEmail, setUnconfirmedEmail] = useState<string | null>(null);

  async function onFinish(values: TLoginFormValues) {
    const email = parseEmail(values.email) ?? values.email;
    setUnconfirmedEmail(null);
    setIsSigningIn(true);
    try {
      const { token } = await loginMutation.mutateAsync({ email, password: values.password });
      await signIn(token);
      navigate(getSafeRedirect(searchParams.get('redirect')) ?? '/rpc/endpoint', {
        replace: true,
      });
    } catch (error) {
      // The client has shown the popup already; the unconfirmed case also gets a way out here.
      if (error instanceof RpcCallError && error.code === ERROR_CODES.EMAIL_NOT_CONFIRMED) {
        setUnconfirmedEmail(email);
      }
    } finally {
      setIsSigningIn(false);
    }
  }

  return (
    <AuthCard title={t('login.title')}>
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
      <Typography.Paragraph style={{ marginTop: 24, marginBottom: 0, textAlign: 'center' }}>
        {t('login.noAccount')} <LocalizedLink to="/register">{t('login.register')}</LocalizedLink>
      </Typography.Paragraph>
    </AuthCard>
  );
}
