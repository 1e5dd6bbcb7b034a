/** The ways to sign in besides e-mail and password: a wallet, and the configured third-party providers. */
import type { TSignInResult } from '@rpc/contract';
import { useTranslation } from 'react-i18next';
import { Divider } from '../ui/alert';
import { OauthSignInButtons } from './oauth-sign-in-buttons';
import { WalletSignInButton } from './wallet-sign-in-button';

export function OtherSignInMethods({
  onResult,
  hasDivider = true,
}: {
  onResult: (result: TSignInResult) => Promise<void>;
  hasDivider?: boolean;
}) {
  const { t } = useTranslation('sign-in');
  return (
    <>
      {hasDivider && <Divider>{t('or')}</Divider>}
      <div className="ui-stack">
        <WalletSignInButton onResult={onResult} />
        <OauthSignInButtons />
      </div>
    </>
  );
}
