/** /reset-password/set and /set-password/set: choose the password with the mailed code. */
import { Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ERROR_CODES } from '@rpc/contract';
import { useLocalizedNavigate } from '../../../lib/locale-path';
import { RpcCallError } from '../../../lib/rpc-client';
import { signOut, useSession } from '../../../lib/session';
import { useResetPassword } from '../api/reset-password';
import { useAuthRules } from '../utils/form-rules';
import { parseCode } from '../utils/query-params';
import { AuthCard } from '../../../components/auth-card';
import type { TPasswordPurpose } from './password-code-checking';
import { PasswordLinkProblem } from './password-code-checking';
import { StatusResult } from '../../../components/status-result';

type TPasswordSetFormValues = { password: string; confirmPassword: string };

const LINK_PROBLEM_CODES: readonly number[] = [
  ERROR_CODES.RESET_CODE_INVALID,
  ERROR_CODES.LINK_INVALID,
  ERROR_CODES.CODE_USED,
];

export function PasswordSetForm({ purpose }: { purpose: TPasswordPurpose }) {
  const { t } = useTranslation('auth');
  const rules = useAuthRules();
  const navigate = useLocalizedNavigate();
  const [searchParams] = useSearchParams();
  const code = parseCode(searchParams.get('code'));
  const resetMutation = useResetPassword();
  const [isLinkBroken, setIsLinkBroken] = useState(false);

  if (code === null || isLinkBroken)
    return <PasswordLinkProblem problem="invalid" purpose={purpose} />;

  if (resetMutation.isSuccess) {
    return (
      <StatusResult
        status="success"
        title={t(`passwordSet.${purpose}.doneTitle`)}
        description={t('passwordSet.doneDescription')}
      >
        <Button type="primary" onClick={() => navigate('/')}>
          {t('common.signIn')}
        </Button>
      </StatusResult>
    );
  }

  async function onFinish(values: TPasswordSetFormValues) {
    if (code === null) return;
    try {
      await resetMutation.mutateAsync({ code, ...values });
      // The reset ended every session, this browser's too (the guard lets signed-in users reach this page).
      if (useSession.getState().token !== null) await signOut();
    } catch (error) {
      // The popup is already shown; a dead link also swaps the form for a way to get a new one.
      if (error instanceof RpcCallError && LINK_PROBLEM_CODES.includes(error.code)) {
        setIsLinkBroken(true);
      }
    }
  }

  return (
    <AuthCard title={t(`passwordSet.${purpose}.title`)}>
      <Typography.Paragraph type="secondary">
        {t(`passwordSet.${purpose}.intro`)}
      </Typography.Paragraph>
      <Form<TPasswordSetFormValues>
        name={`${purpose}-password`}
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        disabled={resetMutation.isPending}
      >
        <Form.Item
          name="password"
          label={t('fields.password')}
          rules={rules.newPassword}
          extra={t('register.passwordHint')}
        >
          <Input.Password autoComplete="new-password" autoFocus />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('fields.confirmPassword')}
          dependencies={['password']}
          rules={rules.confirmPassword()}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={resetMutation.isPending}>
          {t(`passwordSet.${purpose}.submit`)}
        </Button>
      </Form>
    </AuthCard>
  );
}
