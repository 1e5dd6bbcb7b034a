/**
 * Sending the registration confirmation mail again when the address is not known: a small form (the button for a
 * known address is resend-confirm-mail-button.tsx, drawn without antd for the sign-in page).
 */
import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCooldown } from '../../../components/use-cooldown';
import { parseEmail } from '../utils/query-params';
import { useAuthRules } from '../utils/form-rules';
import { useResend } from './resend-confirm-mail-button';

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
