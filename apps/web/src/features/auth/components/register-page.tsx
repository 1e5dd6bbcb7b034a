/**
 * /register: create an account with e-mail and password; the confirmation mail follows. Drawn without antd
 * (components/ui/), like the sign-in page.
 */
import Cookies from 'js-cookie';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthCard } from '../../../components/auth-card';
import { Button } from '../../../components/ui/button';
import {
  CheckboxField,
  PasswordField,
  RadioButtonsField,
  TextField,
} from '../../../components/ui/fields';
import type { TRule } from '../../../components/ui/use-form';
import { useForm } from '../../../components/ui/use-form';
import { useLocale } from '../../../lib/i18n';
import { LocalizedLink, useLocalizedNavigate } from '../../../lib/locale-path';
import { COOKIE } from '../../../lib/storage-keys';
import { useEmailExists } from '../api/get-email-exists';
import { useRegister } from '../api/register';
import { authChecks, preloadAuthChecks } from '../utils/lazy-auth-checks';
import { usePlainAuthRules } from '../utils/plain-rules';
import { AcceptTermsLabel } from './accept-terms-label';

type TRegisterFormValues = {
  /** a personal account, or a team account whose first team is named below (SPEC §3 userType) */
  accountType: 'user' | 'team';
  teamName: string;
  email: string;
  password: string;
  confirmPassword: string;
  acceptTerms: boolean;
};

const INITIAL: TRegisterFormValues = {
  accountType: 'user',
  teamName: '',
  email: '',
  password: '',
  confirmPassword: '',
  acceptTerms: false,
};

const DEPENDENCIES = { confirmPassword: ['password'] } as const;

/** The address as typed, compared as the server stores it (trimmed, lower case). */
const sameAddress = (typed: string) => typed.trim().toLowerCase();

export function RegisterPage() {
  const { t } = useTranslation('auth');
  const rules = usePlainAuthRules<TRegisterFormValues>();
  const navigate = useLocalizedNavigate();
  const { lang } = useLocale();
  const registerMutation = useRegister();
  // Only a team account names its team.
  const teamNameRules: TRule<TRegisterFormValues>[] = [
    async (value, values) => {
      if (values.accountType !== 'team') return undefined;
      const checks = await authChecks();
      if (checks === null || typeof value !== 'string') return undefined;
      return checks.isTeamName(value) ? undefined : t('register.teamNameInvalid');
    },
  ];
  const form = useForm<TRegisterFormValues>({
    name: 'register',
    initialValues: INITIAL,
    rules: {
      email: rules.email,
      password: rules.newPassword,
      confirmPassword: rules.confirmPassword(),
      acceptTerms: rules.terms,
      teamName: teamNameRules,
    },
    dependencies: DEPENDENCIES,
  });
  const isTeam = form.values.accountType === 'team';
  // The address last checked on blur; the hint only shows while the field still holds it.
  const [checkedEmail, setCheckedEmail] = useState<string | null>(null);
  const emailExists = useEmailExists(checkedEmail);
  const isEmailTaken =
    checkedEmail !== null &&
    sameAddress(form.values.email) === checkedEmail &&
    emailExists.data?.exists === true;

  async function onEmailBlur() {
    const typed = form.values.email;
    const checks = typed.trim() === '' ? null : await authChecks();
    setCheckedEmail(checks?.parseEmail(typed) ?? null);
  }

  async function onFinish(values: TRegisterFormValues) {
    const email = (await authChecks())?.parseEmail(values.email) ?? values.email;
    try {
      const result = await registerMutation.mutateAsync({
        email,
        password: values.password,
        confirmPassword: values.confirmPassword,
        language: lang,
        ...(values.accountType === 'team' ? { teamName: values.teamName.trim() } : {}),
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
      <form
        name="register"
        noValidate
        onChange={preloadAuthChecks}
        onSubmit={form.onSubmit(onFinish)}
      >
        <fieldset className="ui-fieldset" disabled={registerMutation.isPending}>
          <RadioButtonsField
            field={form.field('accountType')}
            label={t('register.accountType')}
            options={[
              { value: 'user', label: t('register.personal') },
              { value: 'team', label: t('register.team') },
            ]}
          />
          {isTeam && (
            <TextField
              field={form.field('teamName')}
              label={t('register.teamName')}
              extra={t('register.teamHint')}
              autoComplete="organization"
              maxLength={40}
            />
          )}
          <TextField
            field={form.field('email')}
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            autoFocus
            placeholder={t('fields.emailPlaceholder')}
            onBlur={() => void onEmailBlur()}
            extra={
              isEmailTaken ? (
                <span role="status">
                  {t('register.emailTaken')}{' '}
                  <LocalizedLink to="/">{t('register.signInInstead')}</LocalizedLink>
                </span>
              ) : undefined
            }
          />
          <PasswordField
            field={form.field('password')}
            label={t('fields.password')}
            extra={t('register.passwordHint')}
            autoComplete="new-password"
          />
          <PasswordField
            field={form.field('confirmPassword')}
            label={t('fields.confirmPassword')}
            autoComplete="new-password"
          />
          <CheckboxField field={form.field('acceptTerms')}>
            <AcceptTermsLabel />
          </CheckboxField>
          <Button
            variant="primary"
            htmlType="submit"
            isBlock
            isLoading={registerMutation.isPending}
          >
            {t('register.submit')}
          </Button>
        </fieldset>
      </form>
      <p className="ui-paragraph" style={{ marginTop: 24, marginBottom: 0, textAlign: 'center' }}>
        {t('register.haveAccount')} <LocalizedLink to="/">{t('register.signIn')}</LocalizedLink>
      </p>
    </AuthCard>
  );
}
