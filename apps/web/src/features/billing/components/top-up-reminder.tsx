/**
 * The top-up reminder at the top of every dashboard page, for users who keep "Reminders" on (SPEC §3
 * rechargeTips, hub_setRechargeTips): pay-as-you-go owes beyond the wallet, the wallet is nearly empty while
 * pay-as-you-go bills it, or no RUs are left without pay-as-you-go. Dismissed for the browser session.
 */
import { Alert } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LocalizedLink } from '../../../lib/locale-path';
import { useSession } from '../../../lib/session';
import { useWalletOverview } from '../api/get-wallet-overview';
import { useBillingFormat } from '../hooks/use-billing-format';

/** With pay-as-you-go on, a wallet at or under this is low (the server's low_balance uses the same figure). */
export const LOW_WALLET_CENTS = 500;
const DISMISSED_KEY = 'top-up-reminder-dismissed';

export function TopUpReminder() {
  const { t } = useTranslation('billing');
  const format = useBillingFormat();
  const isOn = useSession((s) => s.user?.rechargeTips === 1);
  // Only users who keep reminders on pay for the extra request.
  const wallet = useWalletOverview({ isEnabled: isOn });
  const [isDismissed, setIsDismissed] = useState(
    () => sessionStorage.getItem(DISMISSED_KEY) === '1',
  );
  const w = wallet.data;
  if (!isOn || isDismissed || !w) return null;

  const reason =
    w.arrearsCents > 0
      ? t('reminder.arrears', { amount: format.money(w.arrearsCents) })
      : w.isPaygActive && w.amountCents <= LOW_WALLET_CENTS
        ? t('reminder.lowWallet', { amount: format.money(w.amountCents) })
        : !w.isPaygActive && w.ruLeft <= 0
          ? t('reminder.noRu')
          : null;
  if (!reason) return null;

  return (
    <Alert
      type="warning"
      showIcon
      closable
      style={{ marginBottom: 16 }}
      message={reason}
      action={<LocalizedLink to="/rpc/billings/charge">{t('reminder.topUp')}</LocalizedLink>}
      onClose={() => {
        sessionStorage.setItem(DISMISSED_KEY, '1');
        setIsDismissed(true);
      }}
    />
  );
}
