/** /reset-password: ask for a reset link; the answer never tells whether the address is registered. */
import { Button, Form, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ERROR_CODES } from '@rpc/contract';
import { LocalizedLink, useLocalizedNavigate } from '../../../lib/locale-path';
import { RpcCallError } from '../../../lib/rpc-client';
import { useSendResetPasswordMail } from '../api/send-reset-password-mail';
import { useCooldown } from '../../../components/use-cooldown';
import { useAuthRules } from '../utils/form-rules';
import { parseEmail } from '../utils/query-params';
import { AuthCard } from '../../../components/auth-card';
import { StatusResult } from '../../../components/status-result';

type TResetPasswordFormValues = { email: string };

export function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const rules = useAuthRules();
  const navigate = useLocalizedNavigate();
  const sendMutation = useSendResetPasswordMail();
  const cooldown = useCooldown();
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function send(email: string) {
    try {
      await sendMutation.mutateAsync({ email, purpose: 'reset' });
      setSentTo(email);
      cooldown.start();
    } catch (error) {
      if (error instanceof RpcCallError && error.code === ERROR_CODES.RATE_LIMITED) {
        cooldown.start(error.attemptsExpireAt);
      }
    }
  }

  if (sentTo !== null) {
    return (
      <StatusResult
        status="info"
        title={t('resetPassword.sentTitle')}
        description={t('resetPassword.sentDescription', { email: sentTo })}
      >
        <Space direction="vertical" size="middle">
          <Button
            loading={sendMutation.isPending}
            disabled={cooldown.isCoolingDown}
            onClick={() => send(sentTo)}
          >
            {cooldown.isCoolingDown
              ? t('resend.wait', { seconds: cooldown.remaining })
              : t('resetPassword.resend')}
          </Button>
          <Space wrap>
            <Button type="link" onClick={() => setSentTo(null)}>
              {t('resetPassword.otherAddress')}
            </Button>
            <Button type="link" onClick={() => navigate('/')}>
              {t('common.backToSignIn')}
            </Button>
          </Space>
        </Space>
      </StatusResult>
    );
  }

  return (
    <AuthCard title={t('resetPassword.title')}>
      <Typography.Paragraph type="secondary">{t('resetPassword.intro')}</Typography.Paragraph>
      <Form<TResetPasswordFormValues>
        name="reset-password"
        layout="vertical"
        requiredMark={false}
        onFinish={(values) => send(parseEmail(values.email) ?? values.email)}
        disabled={sendMutation.isPending}
      >
        <Form.Item name="email" label={t('fields.email')} rules={rules.email}>
          <Input
            type="email"
            autoComplete="email"
            autoFocus
            placeholder={t('fields.emailPlaceholder')}
          />
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          block
          loading={sendMutation.isPending}
          disabled={cooldown.isCoolingDown}
        >
          {cooldown.isCoolingDown
            ? t('resend.wait', { seconds: cooldown.remaining })
            : t('resetPassword.submit')}
        </Button>
      </Form>
      <Typography.Paragraph style={{ marginTop: 24, marginBottom: 0, textAlign: 'center' }}>
        <LocalizedLink to="/">{t('common.backToSignIn')}</LocalizedLink>
      </Typography.Paragraph>
    </AuthCard>
  );
}
