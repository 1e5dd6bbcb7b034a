/** The second step of a sign-in with two-factor on: a code from the authenticator app, or a backup code. */
import type { TSignInResult } from '@rpc/contract';
import { ERROR_CODES } from '@rpc/contract';
import type { InputRef } from 'antd';
import { Button, Flex, Form, Input, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RpcCallError } from '../../lib/rpc-client';
import { ENDED_SIGN_IN_CODES, verifyTwoFactorLogin } from './api/verify-two-factor-login';

const TOTP_CODE = /^\d{6}$/;
const BACKUP_CODE = /^[0-9A-Za-z]{4}-?[0-9A-Za-z]{4}$/;

type TTwoFactorStepProps = {
  pendingToken: string;
  /** the full session the code bought */
  onVerified: (result: TSignInResult) => Promise<void>;
  /** the pending sign-in is over (ended) or the user went back (cancelled) */
  onRestart: (reason: 'ended' | 'cancelled') => void;
};

type TValues = { code: string };

export function TwoFactorSignInStep({ pendingToken, onVerified, onRestart }: TTwoFactorStepProps) {
  const { t } = useTranslation('sign-in');
  const [form] = Form.useForm<TValues>();
  const [isBackup, setIsBackup] = useState(false);
  const [isVerifying, setIsVerifying] = useState(false);
  const inputRef = useRef<InputRef>(null);

  // Focus follows the field when the user switches between an app code and a backup code.
  useEffect(() => {
    inputRef.current?.focus();
  }, [isBackup]);

  function switchMode() {
    form.resetFields();
    setIsBackup((value) => !value);
  }

  async function onFinish({ code }: TValues) {
    setIsVerifying(true);
    try {
      const result = await verifyTwoFactorLogin(pendingToken, code.trim());
      await onVerified(result);
    } catch (error) {
      if (error instanceof RpcCallError && error.code === ERROR_CODES.TWO_FACTOR_INVALID) {
        form.setFields([{ name: 'code', value: '', errors: [t('twoFactorStep.wrong')] }]);
        inputRef.current?.focus();
      } else if (error instanceof RpcCallError && ENDED_SIGN_IN_CODES.includes(error.code)) {
        onRestart('ended');
      }
      // Anything else: the client has shown it; the code may be tried again.
    } finally {
      setIsVerifying(false);
    }
  }

  return (
    <section aria-labelledby="two-factor-step-title">
      <Typography.Title level={2} id="two-factor-step-title" style={{ fontSize: 18, marginTop: 0 }}>
        {t('twoFactorStep.title')}
      </Typography.Title>
      <Typography.Paragraph>
        {isBackup ? t('twoFactorStep.introBackup') : t('twoFactorStep.intro')}
      </Typography.Paragraph>
      <Form<TValues>
        form={form}
        name="two-factor-sign-in"
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        disabled={isVerifying}
      >
        <Form.Item
          name="code"
          label={isBackup ? t('twoFactorStep.backupCode') : t('twoFactorStep.code')}
          rules={[
            {
              required: true,
              whitespace: true,
              message: isBackup
                ? t('twoFactorStep.backupRequired')
                : t('twoFactorStep.codeRequired'),
            },
            {
              pattern: isBackup ? BACKUP_CODE : TOTP_CODE,
              message: isBackup
                ? t('twoFactorStep.backupRequired')
                : t('twoFactorStep.codeRequired'),
            },
          ]}
        >
          <Input
            ref={inputRef}
            autoComplete="one-time-code"
            inputMode={isBackup ? 'text' : 'numeric'}
            maxLength={isBackup ? 9 : 6}
            spellCheck={false}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={isVerifying}>
          {t('twoFactorStep.submit')}
        </Button>
      </Form>
      <Flex justify="space-between" wrap gap={8} style={{ marginTop: 16 }}>
        <Button type="link" style={{ paddingInline: 0 }} onClick={switchMode}>
          {isBackup ? t('twoFactorStep.useApp') : t('twoFactorStep.useBackup')}
        </Button>
        <Button type="link" style={{ paddingInline: 0 }} onClick={() => onRestart('cancelled')}>
          {t('twoFactorStep.cancel')}
        </Button>
      </Flex>
    </section>
  );
}
