/**
 * What the page says when a wallet step did not happen: no wallet installed (with where to get one), a quiet
 * "cancelled" when the user said no, a hint when the wallet is already asking. Console API errors are not here:
 * the request client has shown those.
 */
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HELP_LINKS } from '../../lib/help-links';
import type { TWalletErrorKind } from '../../lib/wallet';
import { isWalletError } from '../../lib/wallet';
import { ExternalLink } from '../external-link';
import { Alert } from '../ui/alert';

type TShown = { kind: TWalletErrorKind; reason: string } | null;

export function useWalletFeedback() {
  const [shown, setShown] = useState<TShown>(null);
  const clear = useCallback(() => setShown(null), []);
  /** Shows `error` when it came from the wallet; answers whether it did. */
  const report = useCallback((error: unknown): boolean => {
    if (!isWalletError(error)) return false;
    setShown({ kind: error.kind, reason: error.message });
    return true;
  }, []);
  return { clear, report, feedback: <WalletFeedback shown={shown} /> };
}

function WalletFeedback({ shown }: { shown: TShown }) {
  const { t } = useTranslation('sign-in');
  if (!shown) return null;
  if (shown.kind === 'missing') {
    return (
      <Alert
        type="info"
        role="alert"
        className="ui-alert-after"
        title={t('wallet.missing')}
        description={
          <ExternalLink href={HELP_LINKS.installWallet}>{t('wallet.install')}</ExternalLink>
        }
      />
    );
  }
  if (shown.kind === 'failed') {
    return (
      <Alert
        type="error"
        role="alert"
        className="ui-alert-after"
        title={t('wallet.failed', { reason: shown.reason })}
      />
    );
  }
  return (
    <p className="ui-secondary" role="status" style={{ marginTop: 8, marginBottom: 0 }}>
      {shown.kind === 'rejected' ? t('wallet.rejected') : t('wallet.busy')}
    </p>
  );
}
