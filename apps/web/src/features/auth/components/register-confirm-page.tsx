/** /register-confirm: "check your inbox" after registering, with a throttled resend. */
import { Button, Space, Typography } from 'antd';
import Cookies from 'js-cookie';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { useLocalizedNavigate } from '../../../lib/locale-path';
import { COOKIE } from '../../../lib/storage-keys';
import { parseEmail } from '../utils/query-params';
import { ResendConfirmMailForm } from './resend-confirm-mail';
import { ResendConfirmMailButton } from './resend-confirm-mail-button';
import { StatusResult } from '../../../components/status-result';

type TRegisterConfirmState = { isMailSent?: boolean } | null;

export function RegisterConfirmPage() {
  const { t } = useTranslation('auth');
  const navigate = useLocalizedNavigate();
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const email =
    parseEmail(searchParams.get('email')) ?? parseEmail(Cookies.get(COOKIE.registerConfirm));
  // Straight from registering: a mail has just gone out, so the first resend waits too.
  const isMailJustSent = (location.state as TRegisterConfirmState)?.isMailSent === true;

  return (
    <StatusResult
      status="info"
      title={t('registerConfirm.title')}
      description={
        email !== null ? (
          <Typography.Text>
            {t('registerConfirm.description')} <Typography.Text strong>{email}</Typography.Text>
            <br />
            {t('registerConfirm.hint')}
          </Typography.Text>
        ) : (
          t('registerConfirm.noEmail')
        )
      }
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        {email !== null ? (
          <ResendConfirmMailButton email={email} isCoolingDownAtMount={isMailJustSent} isPrimary />
        ) : (
          <ResendConfirmMailForm />
        )}
        <Button type="link" onClick={() => navigate('/')}>
          {t('common.backToSignIn')}
        </Button>
      </Space>
    </StatusResult>
  );
}
