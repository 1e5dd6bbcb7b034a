/**
 * Binds an e-mail address to an account created with a wallet or a third party: the address is checked when the
 * field is left, a six-digit code is mailed to it, and a password is chosen too when the account has none. Used by
 * the profile and by /first-login.
 */
import { ERROR_CODES, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, ZEmailSchema } from '@rpc/contract';
import type { FormRule } from 'antd';
import { Button, Flex, Form, Input, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RpcCallError } from '../../lib/rpc-client';
import { useCooldown } from '../use-cooldown';
import {
  checkBindableEmail,
  sendBindConfirmMail,
  useBindEmail,
  useNoPassword,
} from './api/bind-email';

type TValues = { email: string; code: string; password?: string; confirmPassword?: string };

type TAvailability = 'unknown' | 'checking' | 'available' | 'taken';

/** The address as the server will store it, or null when it is not one. */
function normaliseEmail(value: unknown): string | null {
  const parsed = ZEmailSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

type TBindEmailFormProps = {
  /** the address is bound (the caller refreshes the user) */
  onBound: (email: string) => void | Promise<void>;
  /** shown beside the submit button, e.g. "Skip for now" */
  extraAction?: ReactNode;
  /** prefix of field ids, so two forms on one page keep unique ids */
  name?: string;
};

export function BindEmailForm({ onBound, extraAction, name = 'bind-email' }: TBindEmailFormProps) {
  const { t } = useTranslation('sign-in');
  const [form] = Form.useForm<TValues>();
  const noPassword = useNoPassword();
  const bindMutation = useBindEmail();
  const cooldown = useCooldown();
  const [availability, setAvailability] = useState<{ email: string; state: TAvailability }>({
    email: '',
    state: 'unknown',
  });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [isSending, setIsSending] = useState(false);
  const needsPassword = noPassword.data?.isNoPassword === true;

  async function checkAvailability(): Promise<TAvailability> {
    const email = normaliseEmail(form.getFieldValue('email'));
    if (email === null) return 'unknown';
    if (availability.email === email && availability.state !== 'checking')
      return availability.state;
    setAvailability({ email, state: 'checking' });
    try {
      const { available } = await checkBindableEmail(email);
      const state = available ? 'available' : 'taken';
      setAvailability({ email, state });
      return state;
    } catch {
      // Silent by the spec (SPEC §8); the send or bind call will say what is wrong.
      setAvailability({ email, state: 'unknown' });
      return 'unknown';
    }
  }

  async function onSendCode() {
    let email: string | null = null;
    try {
      await form.validateFields(['email']);
      email = normaliseEmail(form.getFieldValue('email'));
    } catch {
      return; // the field says why
    }
    if (email === null || (await checkAvailability()) === 'taken') return;
    setIsSending(true);
    try {
      await sendBindConfirmMail(email);
      setSentTo(email);
      cooldown.start();
    } catch (error) {
      if (error instanceof RpcCallError && error.code === ERROR_CODES.RATE_LIMITED) {
        cooldown.start(error.attemptsExpireAt);
      }
    } finally {
      setIsSending(false);
    }
  }

  async function onFinish(values: TValues) {
    const email = normaliseEmail(values.email);
    if (email === null) return;
    try {
      const result = await bindMutation.mutateAsync({
        email,
        code: values.code.trim(),
        ...(needsPassword
          ? { password: values.password, confirmPassword: values.confirmPassword }
          : {}),
      });
      await onBound(result.email);
    } catch (error) {
      if (!(error instanceof RpcCallError)) return;
      if (error.code === ERROR_CODES.BIND_CODE_INVALID) {
        form.setFields([{ name: 'code', errors: [t('bindEmail.codeWrong')] }]);
      } else if (
        error.code === ERROR_CODES.EMAIL_TAKEN ||
        error.code === ERROR_CODES.IDENTITY_TAKEN
      ) {
        setAvailability({ email, state: 'taken' });
      }
    }
  }

  const emailRules: FormRule[] = [
    { required: true, whitespace: true, message: t('bindEmail.emailRequired') },
    {
      validator: async (_, value: unknown) => {
        if (typeof value !== 'string' || value.trim() === '') return;
        if (normaliseEmail(value) === null) throw new Error(t('bindEmail.emailInvalid'));
      },
    },
  ];
  const passwordRules: FormRule[] = [
    { required: true, message: t('bindEmail.passwordRequired') },
    {
      min: PASSWORD_MIN_LENGTH,
      max: PASSWORD_MAX_LENGTH,
      message: t('bindEmail.passwordLength', {
        min: PASSWORD_MIN_LENGTH,
        max: PASSWORD_MAX_LENGTH,
      }),
    },
  ];
  const confirmRules: FormRule[] = [
    { required: true, message: t('bindEmail.confirmRequired') },
    ({ getFieldValue }) => ({
      validator: async (_, value: unknown) => {
        if (!value || getFieldValue('password') === value) return;
        throw new Error(t('bindEmail.mismatch'));
      },
    }),
  ];

  const typed = normaliseEmail(Form.useWatch('email', form));
  const shownState =
    typed !== null && typed === availability.email ? availability.state : 'unknown';
  const emailHelp =
    shownState === 'checking'
      ? t('bindEmail.checking')
      : shownState === 'available'
        ? t('bindEmail.available')
        : shownState === 'taken'
          ? t('bindEmail.taken')
          : undefined;

  return (
    <Form<TValues>
      form={form}
      name={name}
      layout="vertical"
      requiredMark={false}
      onFinish={onFinish}
      disabled={bindMutation.isPending}
      style={{ maxWidth: 400 }}
    >
      <Form.Item
        name="email"
        label={t('bindEmail.email')}
        rules={emailRules}
        validateStatus={
          shownState === 'taken' ? 'error' : shownState === 'available' ? 'success' : undefined
        }
        help={emailHelp}
        // Always on: toggling it re-mounts the input, which would lose focus while the user types.
        hasFeedback
      >
        <Input type="email" autoComplete="email" onBlur={() => void checkAvailability()} />
      </Form.Item>
      <Form.Item>
        <Button
          onClick={() => void onSendCode()}
          loading={isSending}
          disabled={cooldown.isCoolingDown || shownState === 'taken'}
        >
          {cooldown.isCoolingDown
            ? t('bindEmail.wait', { seconds: cooldown.remaining })
            : sentTo !== null && sentTo === typed
              ? t('bindEmail.resend')
              : t('bindEmail.send')}
        </Button>
      </Form.Item>
      {sentTo !== null && sentTo === typed && (
        <Typography.Paragraph type="secondary" role="status">
          {t('bindEmail.sent', { email: sentTo })}
        </Typography.Paragraph>
      )}
      <Form.Item
        name="code"
        label={t('bindEmail.code')}
        rules={[
          { required: true, whitespace: true, message: t('bindEmail.codeRequired') },
          { pattern: /^\s*\d{6}\s*$/, message: t('bindEmail.codeInvalid') },
        ]}
      >
        <Input autoComplete="one-time-code" inputMode="numeric" maxLength={6} />
      </Form.Item>
      {needsPassword && (
        <>
          <Typography.Paragraph type="secondary">
            {t('bindEmail.passwordHint')}
          </Typography.Paragraph>
          <Form.Item name="password" label={t('bindEmail.password')} rules={passwordRules}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="confirmPassword"
            label={t('bindEmail.confirmPassword')}
            dependencies={['password']}
            rules={confirmRules}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        </>
      )}
      <Flex gap={8} wrap>
        <Button type="primary" htmlType="submit" loading={bindMutation.isPending}>
          {t('bindEmail.submit')}
        </Button>
        {extraAction}
      </Flex>
    </Form>
  );
}
