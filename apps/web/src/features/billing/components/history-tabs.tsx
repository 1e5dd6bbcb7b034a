/** The three histories of the wallet as tabs: purchases, packages used, deposits. */
import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { DepositsTable } from './deposits-table';
import { PurchasesTable } from './purchases-table';
import { UsedPackagesTable } from './used-packages-table';

export function HistoryTabs() {
  const { t } = useTranslation('billing');
  return (
    <Card
      title={
        <h2 id="history-title" className="billing-card-title">
          {t('history.title')}
        </h2>
      }
      aria-labelledby="history-title"
      role="region"
    >
      <Tabs
        // antd renders a tab when first opened and keeps it: only the open table loads, filters survive.
        items={[
          { key: 'purchases', label: t('history.purchases'), children: <PurchasesTable /> },
          { key: 'used', label: t('history.used'), children: <UsedPackagesTable /> },
          { key: 'deposits', label: t('history.deposits'), children: <DepositsTable /> },
        ]}
      />
    </Card>
  );
}
