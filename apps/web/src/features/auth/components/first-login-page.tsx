/** /first-login: an uninitialised personal account accepts the terms, which initialises it. */
import { Button, Checkbox, Form, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocalizedNavigate } from '../../../lib/locale-path';
import { refreshUser, signOut, useSession } from '../../../lib/session';
import { useAcceptTerms } from '../api/accept-terms';
import { useAuthRules } from '../utils/form-rules';
import { AcceptTermsLabel } from './accept-terms-label';
import { AuthCard } from './auth-card';

type TFirstLoginFormValues = { acceptTerms: boolean };

export function FirstLoginPage() {
  const { t } = useTranslation('auth');
  const rules = useAuthRules();
  const navigate = useLocalizedNavigate();
  const user = useSession((state) => state.user);
  const acceptMutation = useAcceptTerms();
  const [isFinishing, setIsFinishing] = useState(false);

  async function onFinish() {
    setIsFinishing(true);
    try {
      await acceptMutation.mutateAsync();
      await refreshUser();
      navigate('/rpc/endpoint', { replace: true });
    } catch {
      // The client has shown the popup; the user may try again.
    } finally {
      setIsFinishing(false);
    }
  }

  async function onSignOut() {
    await signOut();
    navigate('/', { replace: true });
  }

  const name = user?.nickname || user?.email;
  return (
    <AuthCard title={name ? t('firstLogin.titleNamed', { name }) : t('firstLogin.title')}>
      <Typography.Paragraph>{t('firstLogin.intro')}</Typography.Paragraph>
      <Form<TFirstLoginFormValues>
        name="first-login"
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        disabled={isFinishing}
      >
        <Form.Item name="acceptTerms" valuePropName="checked" rules={rules.terms}>
          <Checkbox autoFocus>
            <AcceptTermsLabel />
          </Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={isFinishing}>
          {t('firstLogin.submit')}
        </Button>
      </Form>
      <Typography.Paragraph style={{ marginTop: 24, marginBottom: 0, textAlign: 'center' }}>
        <Button type="link" onClick={onSignOut}>
          {t('firstLogin.signOut')}
        </Button>
      </Typography.Paragraph>
    </AuthCard>
  );
}
