/** Sending the registration confirmation mail again, as a button: on the sign-in page and the confirm pages. */
import { ERROR_CODES } from '@rpc/contract';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { RESEND_COOLDOWN_S, useCooldown } from '../../../components/use-cooldown';
import { showPopup } from '../../../lib/popups';
import { RpcCallError } from '../../../lib/rpc-client';
import { useSendRegisterConfirmMail } from '../api/send-register-confirm-mail';

/** antd's default for message.success. */
const SENT_POPUP_S = 3;

/** Sends the mail; on success or on a 10429 the caller's countdown starts. */
export function useResend(start: (until?: number) => void) {
  const { t } = useTranslation('auth');
  const mutation = useSendRegisterConfirmMail();
  async function resend(email: string) {
    try {
      await mutation.mutateAsync(email);
      start();
      showPopup('success', t('resend.sent'), SENT_POPUP_S);
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
      variant={isPrimary ? 'primary' : 'default'}
      isLoading={isPending}
      disabled={cooldown.isCoolingDown}
      onClick={() => void resend(email)}
    >
      {cooldown.isCoolingDown
        ? t('resend.wait', { seconds: cooldown.remaining })
        : t('resend.button')}
    </Button>
  );
}
