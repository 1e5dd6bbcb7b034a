/** The second step of a sign-in with two-factor on: a code from the authenticator app, or a backup code. */
import type { TSignInResult } from '@rpc/contract';
import { ERROR_CODES } from '@rpc/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RpcCallError } from '../../lib/rpc-client';
import { Button } from '../ui/button';
import { TextField } from '../ui/fields';
import type { TRule } from '../ui/use-form';
import { useForm } from '../ui/use-form';
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

const INITIAL: TValues = { code: '' };

export function TwoFactorSignInStep({ pendingToken, onVerified, onRestart }: TTwoFactorStepProps) {
  const { t } = useTranslation('sign-in');
  const [isBackup, setIsBackup] = useState(false);
  const [isVerifying, setIsVerifying] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const required = isBackup ? t('twoFactorStep.backupRequired') : t('twoFactorStep.codeRequired');
  const codeRules: TRule<TValues>[] = [
    (value) => (value.trim() === '' ? required : undefined),
    (value) => ((isBackup ? BACKUP_CODE : TOTP_CODE).test(value) ? undefined : required),
  ];
  const form = useForm<TValues>({
    name: 'two-factor-sign-in',
    initialValues: INITIAL,
    rules: { code: codeRules },
  });

  // Focus follows the field when the user switches between an app code and a backup code.
  useEffect(() => {
    inputRef.current?.focus();
  }, [isBackup]);

  function switchMode() {
    form.reset(INITIAL);
    setIsBackup((value) => !value);
  }

  async function onFinish({ code }: TValues) {
    setIsVerifying(true);
    try {
      const result = await verifyTwoFactorLogin(pendingToken, code.trim());
      await onVerified(result);
    } catch (error) {
      if (error instanceof RpcCallError && error.code === ERROR_CODES.TWO_FACTOR_INVALID) {
        form.reset(INITIAL);
        form.setError('code', t('twoFactorStep.wrong'));
        // After the fieldset is enabled again, or the focus call is lost on a disabled input.
        setTimeout(() => inputRef.current?.focus(), 0);
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
      <h2 className="ui-subtitle" id="two-factor-step-title">
        {t('twoFactorStep.title')}
      </h2>
      <p className="ui-paragraph">
        {isBackup ? t('twoFactorStep.introBackup') : t('twoFactorStep.intro')}
      </p>
      <form name="two-factor-sign-in" noValidate onSubmit={form.onSubmit(onFinish)}>
        <fieldset className="ui-fieldset" disabled={isVerifying}>
          <TextField
            field={form.field('code')}
            label={isBackup ? t('twoFactorStep.backupCode') : t('twoFactorStep.code')}
            inputRef={inputRef}
            autoComplete="one-time-code"
            inputMode={isBackup ? 'text' : 'numeric'}
            maxLength={isBackup ? 9 : 6}
            spellCheck={false}
          />
          <Button variant="primary" htmlType="submit" isBlock isLoading={isVerifying}>
            {t('twoFactorStep.submit')}
          </Button>
        </fieldset>
      </form>
      <div className="ui-row ui-row-between" style={{ marginTop: 16 }}>
        <Button variant="link" onClick={switchMode}>
          {isBackup ? t('twoFactorStep.useApp') : t('twoFactorStep.useBackup')}
        </Button>
        <Button variant="link" onClick={() => onRestart('cancelled')}>
          {t('twoFactorStep.cancel')}
        </Button>
      </div>
    </section>
  );
}
