/** /reset-password/checking and /set-password/checking: look at the mailed code, then go on to the form. */
import { Button, Space } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useLocalizedNavigate } from '../../../lib/locale-path';
import { usePasswordResetCodeStatus } from '../api/get-password-reset-code-status';
import { parseCode } from '../utils/query-params';
import { LoadingResult, StatusResult } from '../../../components/status-result';

export type TPasswordPurpose = 'reset' | 'set';

export function PasswordCodeChecking({ purpose }: { purpose: TPasswordPurpose }) {
  const { t } = useTranslation('auth');
  const navigate = useLocalizedNavigate();
  const [searchParams] = useSearchParams();
  const code = parseCode(searchParams.get('code'));
  const statusQuery = usePasswordResetCodeStatus(code);
  const status = code === null ? 'invalid' : statusQuery.data?.status;

  useEffect(() => {
    if (code !== null && status === 'valid') {
      navigate(`/${purpose}-password/set?code=${encodeURIComponent(code)}`, { replace: true });
    }
  }, [code, status, purpose, navigate]);

  if (status === undefined && statusQuery.isError) {
    return (
      <StatusResult
        status="error"
        title={t('passwordLink.checkFailed.title')}
        description={t('passwordLink.checkFailed.description')}
      >
        <Button type="primary" onClick={() => void statusQuery.refetch()}>
          {t('common.tryAgain')}
        </Button>
      </StatusResult>
    );
  }
  if (status === undefined || status === 'valid') {
    return <LoadingResult label={t('passwordLink.loading')} />;
  }
  return <PasswordLinkProblem problem={status} purpose={purpose} />;
}

/** What to do when a reset or set-password link cannot be used. */
export function PasswordLinkProblem({
  problem,
  purpose,
}: {
  problem: 'used' | 'expired' | 'invalid';
  purpose: TPasswordPurpose;
}) {
  const { t } = useTranslation('auth');
  const navigate = useLocalizedNavigate();
  return (
    <StatusResult
      status="warning"
      title={t(`passwordLink.${problem}.title`)}
      description={t(`passwordLink.${problem}.description.${purpose}`)}
    >
      <Space wrap>
        <Button type="primary" onClick={() => navigate('/reset-password')}>
          {t('passwordLink.requestNew')}
        </Button>
        <Button onClick={() => navigate('/')}>{t('common.backToSignIn')}</Button>
      </Space>
    </StatusResult>
  );
}
