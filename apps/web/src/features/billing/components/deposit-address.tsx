/**
 * The account's deposit address on the chosen chain: as text with a copy button and as a QR code, with what to
 * send (the coin on that network), the minimum, the confirmations and the rate. Errors show here (10707, 10708).
 */
import type { TCoin } from '@rpc/contract';
import { ERROR_CODES } from '@rpc/contract';
import { Alert, Flex, Typography } from 'antd';
import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button';
import { RpcCallError } from '../../../lib/rpc-client';
import { useDepositAddress } from '../api/get-deposit-address';
import { useBillingFormat } from '../hooks/use-billing-format';
import { formatTokenUnits } from '../utils/money';
import { ErrorState, LoadingState } from './query-state';

export function DepositAddress({ coin }: { coin: TCoin }) {
  const { t } = useTranslation('billing');
  const format = useBillingFormat();
  const address = useDepositAddress(coin.chain);

  if (address.isLoading) return <LoadingState label={t('deposit.addressLoading')} />;
  if (!address.data) {
    const error = address.error;
    if (error instanceof RpcCallError && error.code === ERROR_CODES.DEPOSITS_NOT_CONFIGURED) {
      return <Alert type="info" showIcon message={t('deposit.notConfigured')} />;
    }
    const text =
      error instanceof RpcCallError
        ? format.lang === 'zh'
          ? error.messageZh
          : error.message
        : t('deposit.addressFailed');
    return (
      <ErrorState
        message={text || t('deposit.addressFailed')}
        onRetry={() => void address.refetch()}
      />
    );
  }

  const value = address.data.address;
  return (
    <Flex gap={24} wrap align="flex-start">
      <div className="billing-qr">
        <QRCodeSVG
          value={value}
          size={168}
          marginSize={0}
          role="img"
          aria-label={t('deposit.qrLabel', { coin: coin.coin, chain: coin.chainName })}
        />
      </div>
      <Flex vertical gap={8} style={{ flex: '1 1 240px', minWidth: 0 }}>
        <Typography.Text strong id="deposit-address-label">
          {t('deposit.addressLabel', { coin: coin.coin, chain: coin.chainName })}
        </Typography.Text>
        <Typography.Text
          className="billing-address"
          aria-labelledby="deposit-address-label"
          data-testid="deposit-address"
        >
          {value}
        </Typography.Text>
        <div>
          <CopyButton text={value} label={t('deposit.copy')} />
        </div>
        <ul style={{ margin: 0, paddingInlineStart: 18 }}>
          <li>{t('deposit.onlySend', { coin: coin.coin, chain: coin.chainName })}</li>
          <li>
            {t('deposit.minimum', {
              amount: formatTokenUnits(coin.minDeposit, coin.decimals),
              coin: coin.coin,
            })}
          </li>
          <li>{t('deposit.confirmations', { count: coin.confirmations })}</li>
          <li>
            {t('deposit.rate', { coin: coin.coin, amount: format.money(coin.usdCentsPerCoin) })}
          </li>
          {coin.contract ? (
            <li className="billing-address">
              {t('deposit.contract', { contract: coin.contract })}
            </li>
          ) : null}
        </ul>
      </Flex>
    </Flex>
  );
}
