/** "Sign in with wallet": the wallet signs the server's message; a new wallet gets a new account. */
import type { TSignInResult } from '@rpc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLang } from '../../lib/i18n';
import { signInWithWallet } from '../../lib/wallet';
import { Button } from '../ui/button';
import { WalletIcon } from '../ui/icons';
import { useWalletFeedback } from './wallet-feedback';

export function WalletSignInButton({
  onResult,
}: {
  onResult: (result: TSignInResult) => Promise<void>;
}) {
  const { t } = useTranslation('sign-in');
  const [isBusy, setIsBusy] = useState(false);
  const wallet = useWalletFeedback();

  async function onClick() {
    wallet.clear();
    setIsBusy(true);
    try {
      // created: true is a new, uninitialised account; the guard takes it to /first-login.
      await onResult(await signInWithWallet(currentLang()));
    } catch (error) {
      // Wallet problems are said here; console API errors have had their popup.
      wallet.report(error);
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <div>
      <Button isBlock icon={<WalletIcon />} isLoading={isBusy} onClick={() => void onClick()}>
        {t('wallet.signIn')}
      </Button>
      {wallet.feedback}
    </div>
  );
}
