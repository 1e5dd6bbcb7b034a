/** Active packages in spending order: RUs left of total, expiry, and auto-renew (asked before it is turned on). */
import type { TPackage, TSku } from '@rpc/contract';
import type { TableColumnsType } from 'antd';
import { Empty, Popconfirm, Progress, Switch, Table, Tag, message } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSetAutoRenew } from '../api/set-auto-renew';
import { useBillingFormat } from '../hooks/use-billing-format';

/** Whether a package's auto-renew can be switched: its SKU says so; unknown SKUs only for standard packages. */
export function canAutoRenew(pkg: TPackage, skus: readonly TSku[]): boolean {
  const sku = skus.find((s) => s.id === pkg.skuId);
  return sku ? sku.canAutoRenew : pkg.type === 'standard';
}

function AutoRenewSwitch({ pkg, disabled }: { pkg: TPackage; disabled: boolean }) {
  const { t } = useTranslation('billing');
  const format = useBillingFormat();
  const setAutoRenew = useSetAutoRenew();
  const [isAsking, setAsking] = useState(false);
  const name = format.text(pkg.name);
  const save = (autoRenew: boolean) =>
    setAutoRenew
      .mutateAsync({ packageId: pkg.id, autoRenew })
      .then(() => void message.success(autoRenew ? t('autoRenew.on') : t('autoRenew.off')))
      .catch(() => undefined);

  const control = (
    <Switch
      size="small"
      checked={pkg.autoRenew}
      disabled={disabled}
      loading={setAutoRenew.isPending}
      aria-label={t('autoRenew.label', { name })}
      // Turning it on charges the wallet later, so it is confirmed; turning it off is not.
      onChange={(checked) => (checked ? setAsking(true) : void save(false))}
    />
  );
  if (disabled) return control;
  return (
    <Popconfirm
      open={isAsking}
      title={t('autoRenew.confirmTitle', { name })}
      description={t('autoRenew.confirmDescription')}
      okText={t('autoRenew.confirmOk')}
      cancelText={t('cancel')}
      onConfirm={() => {
        setAsking(false);
        return save(true);
      }}
      onCancel={() => setAsking(false)}
      onOpenChange={(open) => {
        if (!open) setAsking(false);
      }}
    >
      {control}
    </Popconfirm>
  );
}

export function ActivePackages({
  packages,
  skus,
}: {
  packages: readonly TPackage[];
  skus: readonly TSku[];
}) {
  const { t } = useTranslation('billing');
  const format = useBillingFormat();
  if (packages.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('packages.empty')} />;
  }
  const columns: TableColumnsType<TPackage> = [
    {
      key: 'name',
      title: t('packages.name'),
      render: (_v, pkg) => (
        <span>
          {format.text(pkg.name)} <Tag>{t(`packageType.${pkg.type}`)}</Tag>
        </span>
      ),
    },
    {
      key: 'ruLeft',
      title: t('packages.ruLeft'),
      render: (_v, pkg) => (
        <div style={{ minWidth: 160 }}>
          {t('packages.ruLeftOf', {
            left: format.number(pkg.ruLeft),
            total: format.number(pkg.ruTotal),
          })}
          {pkg.ruTotal > 0 ? (
            <Progress
              percent={Math.floor((pkg.ruLeft * 100) / pkg.ruTotal)}
              size="small"
              showInfo={false}
              aria-hidden
            />
          ) : null}
        </div>
      ),
    },
    {
      key: 'tier',
      title: t('packages.tier'),
      render: (_v, pkg) => format.tier(pkg.tier),
    },
    {
      key: 'expires',
      title: t('packages.expires'),
      render: (_v, pkg) =>
        pkg.expiresAt === null ? t('packages.never') : format.date(pkg.expiresAt),
    },
    {
      key: 'autoRenew',
      title: t('packages.autoRenew'),
      render: (_v, pkg) => <AutoRenewSwitch pkg={pkg} disabled={!canAutoRenew(pkg, skus)} />,
    },
  ];
  return (
    <div role="region" aria-label={t('packages.title')}>
      <Table<TPackage>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={packages as TPackage[]}
        pagination={false}
        scroll={{ x: 'max-content' }}
      />
    </div>
  );
}
