/** An account with an e-mail address but no password: a link to set one is mailed (the set-password pages). */
import { Button, Typography, message } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSendSetPasswordMail } from '../api/send-set-password-mail';

export function SetPasswordByMail({ email }: { email: string }) {
  const { t } = useTranslation('profile');
  const mutation = useSendSetPasswordMail();
  const [isSent, setIsSent] = useState(false);

  async function onSend(address: string) {
    try {
      await mutation.mutateAsync(address);
    } catch {
      return; // the client has shown the popup
    }
    setIsSent(true);
    void message.success(t('password.setMailSent', { email: address }));
  }

  return (
    <>
      <Typography.Paragraph>
        {isSent ? t('password.setMailSent', { email }) : t('password.noPassword', { email })}
      </Typography.Paragraph>
      <Button
        type="primary"
        loading={mutation.isPending}
        disabled={isSent}
        onClick={() => onSend(email)}
      >
        {t('password.setPassword')}
      </Button>
    </>
  );
}
