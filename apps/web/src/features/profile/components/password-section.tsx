import { Button, Form, Input, Typography, message } from 'antd';
import type { FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { ERROR_CODES, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@rpc/contract';
import { isTwoFactorCancelled, useTwoFactorPrompt } from '../../../components/two-factor-prompt';
import { RpcCallError } from '../../../lib/rpc-client';
import type { TUser } from '../../../lib/session';
import { useChangePassword } from '../api/change-password';
import { ProfileSection } from './profile-section';

type TChangePasswordFormValues = {
  oldPassword: string;
  password: string;
  confirmPassword: string;
};

/** Changing a password the user has; an account without one sets it from "Sign-in methods". */
export function PasswordSection({ user }: { user: TUser }) {
  const { t } = useTranslation('profile');
  if (user.isNoPassword) return null;
  return (
    <ProfileSection title={t('password.title')}>
      <ChangePasswordForm />
    </ProfileSection>
  );
}

function ChangePasswordForm() {
  const { t } = useTranslation('profile');
  const [form] = Form.useForm<TChangePasswordFormValues>();
  const mutation = useChangePassword();
  const twoFactor = useTwoFactorPrompt();

  const newPasswordRules: FormRule[] = [
    { required: true, message: t('password.newRequired') },
    {
      min: PASSWORD_MIN_LENGTH,
      max: PASSWORD_MAX_LENGTH,
      message: t('password.length', { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH }),
    },
  ];
  const confirmRules: FormRule[] = [
    { required: true, message: t('password.confirmRequired') },
    ({ getFieldValue }) => ({
      validator: async (_, value: unknown) => {
        if (!value || getFieldValue('password') === value) return;
        throw new Error(t('password.mismatch'));
      },
    }),
  ];

  async function onFinish(values: TChangePasswordFormValues) {
    try {
      // With two-factor sign-in on, the server asks for a code (10219) and the change is tried again with it.
      await twoFactor.withTwoFactor((twoFactorCode) =>
        mutation.mutateAsync({ ...values, ...(twoFactorCode ? { twoFactorCode } : {}) }),
      );
    } catch (error) {
      if (isTwoFactorCancelled(error)) return;
      // The popup is shown already; a wrong current password is also marked on its field.
      if (error instanceof RpcCallError && error.code === ERROR_CODES.WRONG_PASSWORD) {
        form.setFields([{ name: 'oldPassword', errors: [t('password.wrongCurrent')] }]);
      }
      return;
    }
    form.resetFields();
    void message.success(t('password.changed'));
  }

  return (
    <>
      <Form<TChangePasswordFormValues>
        form={form}
        name="profile-password"
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        disabled={mutation.isPending}
        style={{ maxWidth: 400 }}
      >
        <Form.Item
          name="oldPassword"
          label={t('password.current')}
          rules={[{ required: true, message: t('password.currentRequired') }]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('password.new')}
          rules={newPasswordRules}
          extra={t('password.hint')}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('password.confirm')}
          dependencies={['password']}
          rules={confirmRules}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Typography.Paragraph type="secondary">
          {t('password.othersSignedOut')}
        </Typography.Paragraph>
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          {t('password.submit')}
        </Button>
      </Form>
      {twoFactor.prompt}
    </>
  );
}
