/** Sending the registration confirmation mail again: a button when the address is known, else a small form. */
import { Button, Form, Input, message } from 'antd';
import { useTranslation } from 'react-i18next';
import { ERROR_CODES } from '@rpc/contract';
import { RpcCallError } from '../../../lib/rpc-client';
import { useSendRegisterConfirmMail } from '../api/send-register-confirm-mail';
import { RESEND_COOLDOWN_S, useCooldown } from '../../../components/use-cooldown';
import { parseEmail } from '../utils/query-params';
import { useAuthRules } from '../utils/form-rules';

/** Sends the mail; on success or on a 10429 the caller's countdown starts. */
function useResend(start: (until?: number) => void) {
  const { t } = useTranslation('auth');
  const mutation = useSendRegisterConfirmMail();
  async function resend(email: string) {
    try {
      await mutation.mutateAsync(email);
      start();
      void message.success(t('resend.sent'));
    } catch (error) {
      // The client has already shown the popup; only the countdown is ours to set.
      if (error instanceof RpcCallError && error.code === ERROR_CODES.RATE_LIMITED) {
        start(error.attemptsExpireAt);
      }
    }
  }
  return { resend, isPending: mutation.isPending };
}

type TResendButtonProps = {
  email: string;
  /** true when a mail has just been sent, so the first resend waits like any other */
  isCoolingDownAtMount?: boolean;
  isPrimary?: boolean;
};

export function ResendConfirmMailButton({
  email,
  isCoolingDownAtMount = false,
  isPrimary = false,
}: TResendButtonProps) {
  const { t } = useTranslation('auth');
  const cooldown = useCooldown(RESEND_COOLDOWN_S, isCoolingDownAtMount);
  const { resend, isPending } = useResend(cooldown.start);
  return (
    <Button
      type={isPrimary ? 'primary' : 'default'}
      loading={isPending}
      disabled={cooldown.isCoolingDown}
      onClick={() => resend(email)}
    >
      {cooldown.isCoolingDown
        ? t('resend.wait', { seconds: cooldown.remaining })
        : t('resend.button')}
    </Button>
  );
}

type TResendFormValues = { email: string };

export function ResendConfirmMailForm({ initialEmail }: { initialEmail?: string | null }) {
  const { t } = useTranslation('auth');
  const rules = useAuthRules();
  const cooldown = useCooldown();
  const { resend, isPending } = useResend(cooldown.start);
  return (
    <Form<TResendFormValues>
      name="resend-confirm-mail"
      layout="vertical"
      requiredMark={false}
      initialValues={{ email: initialEmail ?? '' }}
      onFinish={(values) => resend(parseEmail(values.email) ?? values.email)}
      style={{ textAlign: 'left', maxWidth: 360, margin: '0 auto' }}
    >
      <Form.Item name="email" label={t('fields.email')} rules={rules.email}>
        <Input type="email" autoComplete="email" placeholder={t('fields.emailPlaceholder')} />
      </Form.Item>
      <Button
        type="primary"
        htmlType="submit"
        block
        loading={isPending}
        disabled={cooldown.isCoolingDown}
      >
        {cooldown.isCoolingDown
          ? t('resend.wait', { seconds: cooldown.remaining })
          : t('resend.formButton')}
      </Button>
    </Form>
  );
}
