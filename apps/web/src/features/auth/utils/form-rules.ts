/** Field rules of the auth forms; the e-mail rule reuses the contract's schema (STYLE habit 1). */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@rpc/contract';
import type { FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { parseEmail } from './query-params';

export function useAuthRules() {
  const { t } = useTranslation('auth');

  const email: FormRule[] = [
    { required: true, whitespace: true, message: t('validation.emailRequired') },
    {
      validator: async (_, value: unknown) => {
        if (typeof value !== 'string' || value.trim() === '') return;
        if (parseEmail(value) === null) throw new Error(t('validation.emailInvalid'));
      },
    },
  ];

  /** For a password being chosen; signing in only needs `required`. */
  const newPassword: FormRule[] = [
    { required: true, message: t('validation.passwordRequired') },
    {
      min: PASSWORD_MIN_LENGTH,
      max: PASSWORD_MAX_LENGTH,
      message: t('validation.passwordLength', {
        min: PASSWORD_MIN_LENGTH,
        max: PASSWORD_MAX_LENGTH,
      }),
    },
  ];

  const currentPassword: FormRule[] = [
    { required: true, message: t('validation.passwordRequired') },
  ];

  /** Must equal the field `passwordField`; give the Form.Item `dependencies={[passwordField]}`. */
  function confirmPassword(passwordField = 'password'): FormRule[] {
    return [
      { required: true, message: t('validation.confirmRequired') },
      ({ getFieldValue }) => ({
        validator: async (_, value: unknown) => {
          if (!value || getFieldValue(passwordField) === value) return;
          throw new Error(t('validation.passwordMismatch'));
        },
      }),
    ];
  }

  const terms: FormRule[] = [
    {
      validator: async (_, value: unknown) => {
        if (value !== true) throw new Error(t('validation.termsRequired'));
      },
    },
  ];

  return { email, newPassword, currentPassword, confirmPassword, terms };
}
