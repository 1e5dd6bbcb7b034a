/** /register: create an account with e-mail and password; the confirmation mail follows. */
import { ZTeamNameSchema } from '@rpc/contract';
import { Button, Checkbox, Form, Input, Radio, Typography } from 'antd';
import Cookies from 'js-cookie';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../../lib/i18n';
import { LocalizedLink, useLocalizedNavigate } from '../../../lib/locale-path';
import { COOKIE } from '../../../lib/storage-keys';
import { useEmailExists } from '../api/get-email-exists';
import { useRegister } from '../api/register';
import { useAuthRules } from '../utils/form-rules';
import { parseEmail } from '../utils/query-params';
import { AcceptTermsLabel } from './accept-terms-label';
import { AuthCard } from '../../../components/auth-card';

type TRegisterFormValues = {
  /** a personal account, or a team account whose first team is named below (SPEC §3 userType) */
  accountType: 'user' | 'team';
  teamName?: string;
  email: string;
  password: string;
  confirmPassword: string;
  acceptTerms: boolean;
};

export function RegisterPage() {
  const { t } = useTranslation('auth');
  const rules = useAuthRules();
  const navigate = useLocalizedNavigate();
  const { lang } = useLocale();
  const [form] = Form.useForm<TRegisterFormValues>();
  const registerMutation = useRegister();
  // The address last checked on blur; the hint only shows while the field still holds it.
  const [checkedEmail, setCheckedEmail] = useState<string | null>(null);
  const emailExists = useEmailExists(checkedEmail);
  const currentEmail = parseEmail(Form.useWatch('email', form));
  const isTeam = Form.useWatch('accountType', form) === 'team';
  const isEmailTaken =
    checkedEmail !== null && currentEmail === checkedEmail && emailExists.data?.exists === true;

  function onEmailBlur() {
    setCheckedEmail(parseEmail(form.getFieldValue('email') as string | undefined));
  }

  async function onFinish(values: TRegisterFormValues) {
    const email = parseEmail(values.email) ?? values.email;
    try {
      const result = await registerMutation.mutateAsync({
        email,
        password: values.password,
        confirmPassword: values.confirmPassword,
        language: lang,
        ...(values.accountType === 'team' ? { teamName: values.teamName?.trim() ?? '' } : {}),
      });
      // Lets the confirm page find the address after a reload; sign-in clears it (SPEC §4).
      Cookies.set(COOKIE.registerConfirm, email, { sameSite: 'lax' });
      navigate(`/register-confirm?email=${encodeURIComponent(email)}`, {
        state: { isMailSent: result.confirmMailSent },
      });
    } catch {
      // The client has shown the error popup; the form stays as it was.
    }
  }

  return (
    <AuthCard title={t('register.title')}>
      <Form<TRegisterFormValues>
        form={form}
        name="register"
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        disabled={registerMutation.isPending}
        initialValues={{ accountType: 'user' }}
      >
        <Form.Item name="accountType" label={t('register.accountType')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'user', label: t('register.personal') },
              { value: 'team', label: t('register.team') },
            ]}
          />
        </Form.Item>
        {isTeam && (
          <Form.Item
            name="teamName"
            label={t('register.teamName')}
            extra={t('register.teamHint')}
            rules={[
              {
                validator: async (_rule, value: string | undefined) => {
                  if (!ZTeamNameSchema.safeParse(value ?? '').success) {
                    throw new Error(t('register.teamNameInvalid'));
                  }
                },
              },
            ]}
          >
            <Input autoComplete="organization" maxLength={40} />
          </Form.Item>
        )}
        <Form.Item
          name="email"
          label={t('fields.email')}
          rules={rules.email}
          extra={
            isEmailTaken ? (
              <span role="status">
                {t('register.emailTaken')}{' '}
                <LocalizedLink to="/">{t('register.signInInstead')}</LocalizedLink>
              </span>
            ) : undefined
          }
        >
          <Input
            type="email"
            autoComplete="email"
            autoFocus
            placeholder={t('fields.emailPlaceholder')}
            onBlur={onEmailBlur}
          />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('fields.password')}
          rules={rules.newPassword}
          extra={t('register.passwordHint')}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('fields.confirmPassword')}
          dependencies={['password']}
          rules={rules.confirmPassword()}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="acceptTerms" valuePropName="checked" rules={rules.terms}>
          <Checkbox>
            <AcceptTermsLabel />
          </Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={registerMutation.isPending}>
          {t('register.submit')}
        </Button>
      </Form>
      <Typography.Paragraph style={{ marginTop: 24, marginBottom: 0, textAlign: 'center' }}>
        {t('register.haveAccount')} <LocalizedLink to="/">{t('register.signIn')}</LocalizedLink>
      </Typography.Paragraph>
    </AuthCard>
  );
}
