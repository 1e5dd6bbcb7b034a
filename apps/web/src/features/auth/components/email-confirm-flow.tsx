/**
 * The link from a confirmation mail: check the code without using it, then use it, then say what happened.
 * Shared by /activate-account (new accounts) and /email-confirm (a signed-in user's address).
 */
import { Button, Space } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ERROR_CODES } from '@rpc/contract';
import { useLocalizedNavigate } from '../../../lib/locale-path';
import { RpcCallError } from '../../../lib/rpc-client';
import { refreshUser, useSession } from '../../../lib/session';
import { useConfirmEmail } from '../api/confirm-email';
import { useEmailConfirmCodeStatus } from '../api/get-email-confirm-code-status';
import { parseCode } from '../utils/query-params';
import { ResendConfirmMailForm } from './resend-confirm-mail';
import { LoadingResult, StatusResult } from '../../../components/status-result';

type TOutcome = 'success' | 'alreadyConfirmed' | 'used' | 'expired' | 'invalid' | 'failed';

function outcomeOfError(error: unknown): TOutcome {
  if (!(error instanceof RpcCallError)) return 'failed';
  switch (error.code) {
    case ERROR_CODES.CODE_USED:
      return 'used';
    case ERROR_CODES.EMAIL_ALREADY_CONFIRMED:
      return 'alreadyConfirmed';
    case ERROR_CODES.LINK_INVALID:
    case ERROR_CODES.CONFIRM_CODE_INVALID:
      return 'invalid';
    default:
      return 'failed';
  }
}

export function EmailConfirmFlow() {
  const { t } = useTranslation('auth');
  const navigate = useLocalizedNavigate();
  const [searchParams] = useSearchParams();
  const rawCode = searchParams.get('code');
  const code = parseCode(rawCode);
  const isSignedIn = useSession((state) => state.token !== null);
  const statusQuery = useEmailConfirmCodeStatus(code);
  const confirmMutation = useConfirmEmail();
  const { mutate: confirm } = confirmMutation;
  // The code is single-use: never send it twice, not even when React runs the effect twice.
  const confirmedCode = useRef<string | null>(null);
  const status = statusQuery.data?.status;

  useEffect(() => {
    if (code === null || status !== 'valid' || confirmedCode.current === code) return;
    confirmedCode.current = code;
    confirm(code, {
      onSuccess: () => {
        if (isSignedIn) refreshUser().catch(() => undefined);
      },
    });
  }, [code, status, confirm, isSignedIn]);

  const continueButton = isSignedIn ? (
    <Button type="primary" onClick={() => navigate('/rpc/endpoint')}>
      {t('common.goToConsole')}
    </Button>
  ) : (
    <Button type="primary" onClick={() => navigate('/')}>
      {t('common.signIn')}
    </Button>
  );
  const knownEmail = statusQuery.data?.email ?? null;
  const resendForm = <ResendConfirmMailForm initialEmail={knownEmail} />;

  if (rawCode === null) {
    return (
      <StatusResult
        status="info"
        title={t('emailConfirm.noCode.title')}
        description={t('emailConfirm.noCode.description')}
      >
        {resendForm}
      </StatusResult>
    );
  }

  let outcome: TOutcome | null = null;
  if (code === null) outcome = 'invalid';
  else if (confirmMutation.isSuccess) outcome = 'success';
  else if (confirmMutation.isError) outcome = outcomeOfError(confirmMutation.error);
  else if (status === 'used' || status === 'expired' || status === 'invalid') outcome = status;

  if (outcome === null && statusQuery.isError) {
    return (
      <StatusResult
        status="error"
        title={t('emailConfirm.checkFailed.title')}
        description={t('emailConfirm.checkFailed.description')}
      >
        <Button type="primary" onClick={() => void statusQuery.refetch()}>
          {t('common.tryAgain')}
        </Button>
      </StatusResult>
    );
  }
  if (outcome === null) return <LoadingResult label={t('emailConfirm.loading')} />;

  switch (outcome) {
    case 'success':
    case 'alreadyConfirmed':
      return (
        <StatusResult
          status="success"
          title={t(`emailConfirm.${outcome}.title`)}
          description={
            isSignedIn
              ? t(`emailConfirm.${outcome}.descriptionSignedIn`)
              : t(`emailConfirm.${outcome}.description`)
          }
        >
          {continueButton}
        </StatusResult>
      );
    case 'used':
      return (
        <StatusResult
          status="warning"
          title={t('emailConfirm.used.title')}
          description={t('emailConfirm.used.description')}
        >
          <Space direction="vertical" size="large" style={{ width: '100%' }}>
            {continueButton}
            {resendForm}
          </Space>
        </StatusResult>
      );
    case 'expired':
    case 'invalid':
    case 'failed':
      return (
        <StatusResult
          status={outcome === 'failed' ? 'error' : 'warning'}
          title={t(`emailConfirm.${outcome}.title`)}
          description={t(`emailConfirm.${outcome}.description`)}
        >
          {resendForm}
        </StatusResult>
      );
  }
}
