/**
 * The rules of the plain sign-in and sign-up forms (components/ui/use-form.ts): the same checks and messages as
 * form-rules.ts gives the antd forms; the e-mail check is the contract's schema, loaded with the form's first change.
 */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@rpc/contract';
import { useTranslation } from 'react-i18next';
import type { TRule } from '../../../components/ui/use-form';
import { authChecks } from './lazy-auth-checks';

type TFields = Record<string, string | boolean>;

export function usePlainAuthRules<V extends TFields>() {
  const { t } = useTranslation('auth');

  const email: TRule<V>[] = [
    (value) =>
      typeof value !== 'string' || value.trim() === '' ? t('validation.emailRequired') : undefined,
    async (value) => {
      const checks = await authChecks();
      if (checks === null || typeof value !== 'string') return undefined;
      return checks.parseEmail(value) === null ? t('validation.emailInvalid') : undefined;
    },
  ];

  const currentPassword: TRule<V>[] = [
    (value) => (value === '' ? t('validation.passwordRequired') : undefined),
  ];

  /** For a password being chosen: its length counted in characters, as antd's rule counts it. */
  const newPassword: TRule<V>[] = [
    ...currentPassword,
    (value) => {
      const length = [...String(value)].length;
      return length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH
        ? t('validation.passwordLength', { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH })
        : undefined;
    },
  ];

  /** Must equal the field `passwordField`; name it in the form's `dependencies`. */
  function confirmPassword(passwordField = 'password'): TRule<V>[] {
    return [
      (value) => (value === '' ? t('validation.confirmRequired') : undefined),
      (value, values) =>
        values[passwordField] === value ? undefined : t('validation.passwordMismatch'),
    ];
  }

  const terms: TRule<V>[] = [
    (value) => (value === true ? undefined : t('validation.termsRequired')),
  ];

  return { email, currentPassword, newPassword, confirmPassword, terms };
}
