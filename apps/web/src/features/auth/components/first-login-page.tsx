/**
 * /first-login: an uninitialised personal account (created with a wallet or a third party) is offered to bind an
 * e-mail address when it has none (optional), then accepts the terms, which initialises it.
 */
import { Button, Checkbox, Form, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthCard } from '../../../components/auth-card';
import { BindEmailForm } from '../../../components/sign-in/bind-email-form';
import { useLocalizedNavigate } from '../../../lib/locale-path';
import { refreshUser, signOut, useSession } from '../../../lib/session';
import { useAcceptTerms } from '../api/accept-terms';
import { useAuthRules } from '../utils/form-rules';
import { AcceptTermsLabel } from './accept-terms-label';

type TFirstLoginFormValues = { acceptTerms: boolean };

export function FirstLoginPage() {
  const { t } = useTranslation('auth');
  const navigate = useLocalizedNavigate();
  const user = useSession((state) => state.user);
  // Asked once, when the page opens: binding or skipping moves on to the terms.
  const [step, setStep] = useState<'email' | 'terms'>(() =>
    user !== null && user.email === null ? 'email' : 'terms',
  );

  async function onSignOut() {
    await signOut();
    navigate('/', { replace: true });
  }

  async function onEmailBound() {
    await refreshUser().catch(() => undefined);
    setStep('terms');
  }

  const name = user?.nickname || user?.email;
  return (
    <AuthCard title={name ? t('firstLogin.titleNamed', { name }) : t('firstLogin.title')}>
      {step === 'email' ? (
        <section aria-labelledby="first-login-email">
          <Typography.Title level={2} id="first-login-email" style={{ fontSize: 18, marginTop: 0 }}>
            {t('firstLogin.email.title')}
          </Typography.Title>
          <Typography.Paragraph>{t('firstLogin.email.intro')}</Typography.Paragraph>
          <BindEmailForm
            name="first-login-email"
            onBound={onEmailBound}
            extraAction={
              <Button onClick={() => setStep('terms')}>{t('firstLogin.email.skip')}</Button>
            }
          />
        </section>
      ) : (
        <TermsStep />
      )}
      <Typography.Paragraph style={{ marginTop: 24, marginBottom: 0, textAlign: 'center' }}>
        <Button type="link" onClick={onSignOut}>
          {t('firstLogin.signOut')}
        </Button>
      </Typography.Paragraph>
    </AuthCard>
  );
}

function TermsStep() {
  const { t } = useTranslation('auth');
  const rules = useAuthRules();
  const navigate = useLocalizedNavigate();
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

  return (
    <>
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
    </>
  );
}
