/**
 * /rpc/billings/charge: top up the wallet with a crypto deposit. Pick the network and coin (hub_getWalletCoinList),
 * send to the account's address (QR code and copy), and follow pending deposits until they are credited; or top up
 * by card (top-up-by-card.tsx).
 */
import type { TCoin } from '@rpc/contract';
import { ERROR_CODES } from '@rpc/contract';
import { Card, Empty, Flex, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { RpcCallError } from '../../../lib/rpc-client';
import { useCoinList } from '../api/get-coin-list';
import { useWalletOverview } from '../api/get-wallet-overview';
import { useBillingFormat } from '../hooks/use-billing-format';
import { BillingRoleGate } from './billing-role-gate';
import { DepositAddress } from './deposit-address';
import { FilterSelect } from './filter-select';
import { PendingDeposits } from './pending-deposits';
import { ErrorState, LoadingState } from './query-state';
import { TopUpByCard } from './top-up-by-card';
import './billing.css';

/** The chains in the order the operator listed them, each with its coins. */
export function chainsOf(coins: readonly TCoin[]): { chain: string; chainName: string }[] {
  const chains = new Map<string, string>();
  for (const coin of coins) if (!chains.has(coin.chain)) chains.set(coin.chain, coin.chainName);
  return [...chains].map(([chain, chainName]) => ({ chain, chainName }));
}

function DepositForm({ coins }: { coins: TCoin[] }) {
  const { t } = useTranslation('billing');
  const chains = chainsOf(coins);
  const [chain, setChain] = useState(chains[0]!.chain);
  const onChain = coins.filter((c) => c.chain === chain);
  const [coinName, setCoinName] = useState(onChain[0]!.coin);
  const coin = onChain.find((c) => c.coin === coinName) ?? onChain[0]!;

  return (
    <Flex vertical gap={16}>
      <Flex gap={12} wrap className="billing-filters">
        <FilterSelect
          label={t('deposit.network')}
          value={chain}
          options={chains.map((c) => ({ value: c.chain, label: c.chainName }))}
          onChange={(next) => {
            setChain(next);
            setCoinName(coins.find((c) => c.chain === next)!.coin);
          }}
        />
        <FilterSelect
          label={t('deposit.coin')}
          value={coin.coin}
          options={onChain.map((c) => ({ value: c.coin, label: `${c.coin} · ${c.name}` }))}
          onChange={setCoinName}
        />
      </Flex>
      <DepositAddress coin={coin} />
    </Flex>
  );
}

export function BillingChargePage() {
  const { t } = useTranslation('billing');
  return (
    <BillingRoleGate title={t('charge.title')}>
      <ChargePage />
    </BillingRoleGate>
  );
}

function ChargePage() {
  const { t } = useTranslation('billing');
  const format = useBillingFormat();
  const coins = useCoinList();
  const overview = useWalletOverview();
  const isNotConfigured =
    (coins.data && coins.data.list.length === 0) ||
    (coins.error instanceof RpcCallError &&
      coins.error.code === ERROR_CODES.DEPOSITS_NOT_CONFIGURED);

  return (
    <section aria-labelledby="page-title">
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 16 }}>
        <Typography.Title level={1} id="page-title" style={{ fontSize: 24, margin: 0 }}>
          {t('charge.title')}
        </Typography.Title>
        <LinkButton to="/rpc/billings">{t('links.back')}</LinkButton>
      </Flex>
      <Flex vertical gap={16}>
        {overview.data ? (
          <Typography.Text>
            {t('charge.balance', { amount: format.money(overview.data.amountCents) })}
            {overview.data.arrearsCents > 0
              ? ` ${t('charge.arrears', { amount: format.money(overview.data.arrearsCents) })}`
              : ''}
          </Typography.Text>
        ) : null}
        <Card
          title={
            <h2 id="deposit-title" className="billing-card-title">
              {t('deposit.title')}
            </h2>
          }
          aria-labelledby="deposit-title"
          role="region"
        >
          {coins.isLoading ? (
            <LoadingState label={t('deposit.loading')} />
          ) : isNotConfigured ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('deposit.notConfigured')} />
          ) : !coins.data ? (
            <ErrorState message={t('deposit.loadFailed')} onRetry={() => void coins.refetch()} />
          ) : (
            <DepositForm coins={coins.data.list} />
          )}
        </Card>
        {coins.data && coins.data.list.length > 0 ? <PendingDeposits /> : null}
        <TopUpByCard />
      </Flex>
    </section>
  );
}
