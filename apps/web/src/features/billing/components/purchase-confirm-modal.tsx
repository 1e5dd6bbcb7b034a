/**
 * Confirms a purchase before paying (hub_skuFirstConfirm): price, discount, what is paid, the wallet before and
 * after, the tier before → after and the expiry; "not enough balance" leads to the deposit page. Paying sends
 * the confirmed price and one idempotency key per attempt; a retry after a lost answer reuses that key.
 */
import type { TDiscountDetail, TSku } from '@rpc/contract';
import { ERROR_CODES } from '@rpc/contract';
import { Alert, Button, Checkbox, Descriptions, Flex, Modal, Switch, Tag, message } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { RpcCallError } from '../../../lib/rpc-client';
import type { TBuyPackageParams } from '../api/buy-package';
import { useBuyPackage } from '../api/buy-package';
import { useSkuQuote } from '../api/get-sku-quote';
import { useBillingFormat } from '../hooks/use-billing-format';
import { newIdempotencyKey } from '../utils/idempotency';
import { isOutcomeUnknown } from '../utils/purchase-attempt';
import { ErrorState, LoadingState } from './query-state';

export type TPurchaseConfirmModalProps = {
  sku: TSku;
  discount: TDiscountDetail | null | undefined;
  onClose: () => void;
};

/** Mounted per purchase: closing and opening again is a new attempt with a new key. */
export function PurchaseConfirmModal({ sku, discount, onClose }: TPurchaseConfirmModalProps) {
  const { t } = useTranslation('billing');
  const format = useBillingFormat();
  const hasUsableDiscount = !!discount && discount.usedAt === null;
  const [useDiscount, setUseDiscount] = useState(true);
  const [autoRenew, setAutoRenew] = useState(false);
  const [attemptKey, setAttemptKey] = useState(newIdempotencyKey);
  /** the terms sent when the answer was lost: a retry sends exactly these again */
  const [unknownAttempt, setUnknownAttempt] = useState<TBuyPackageParams | null>(null);
  const quote = useSkuQuote({ skuId: sku.id, useDiscount });
  const buy = useBuyPackage();
  const name = format.text(sku.name);
  const data = quote.data;
  const isUnknown = unknownAttempt !== null;

  const onPay = async () => {
    const params: TBuyPackageParams | null =
      unknownAttempt ??
      (data
        ? {
            skuId: sku.id,
            idempotencyKey: attemptKey,
            autoRenew,
            useDiscount,
            expectedPayCents: data.payCents,
          }
        : null);
    if (!params) return;
    try {
      await buy.mutateAsync(params);
      void message.success(t('confirm.success', { name }));
      onClose();
    } catch (error) {
      if (isOutcomeUnknown(error)) {
        // Same attempt: the same key and the same terms, so paying again pays at most once.
        setUnknownAttempt(params);
        return;
      }
      setUnknownAttempt(null);
      setAttemptKey(newIdempotencyKey());
      const code = error instanceof RpcCallError ? error.code : null;
      if (code === ERROR_CODES.PRICE_CHANGED || code === ERROR_CODES.INSUFFICIENT_BALANCE) {
        void quote.refetch();
      }
    }
  };

  const isLocked = isUnknown || buy.isPending;
  const canPay = isUnknown || (!!data && data.canPay && !quote.isFetching);
  const payCents = unknownAttempt?.expectedPayCents ?? data?.payCents;

  return (
    <Modal
      open
      title={t('confirm.title', { name })}
      onCancel={onClose}
      maskClosable={!buy.isPending}
      footer={
        <Flex gap={8} justify="flex-end" wrap>
          <Button onClick={onClose} disabled={buy.isPending}>
            {t('cancel')}
          </Button>
          <Button
            type="primary"
            loading={buy.isPending}
            disabled={!canPay}
            onClick={() => void onPay()}
          >
            {payCents === undefined
              ? t('confirm.payNoAmount')
              : isUnknown
                ? t('confirm.retryPay', { amount: format.money(payCents) })
                : t('confirm.pay', { amount: format.money(payCents) })}
          </Button>
        </Flex>
      }
    >
      {quote.isLoading ? (
        <LoadingState label={t('confirm.loading')} rows={5} />
      ) : !data ? (
        <ErrorState message={t('confirm.loadFailed')} onRetry={() => void quote.refetch()} />
      ) : (
        <Flex vertical gap={12}>
          {data.isFirstPurchase ? <Tag color="gold">{t('confirm.firstPurchase')}</Tag> : null}
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('confirm.price')}>
              {format.money(data.priceCents)}
            </Descriptions.Item>
            <Descriptions.Item label={t('confirm.discount')}>
              {data.discountCents > 0
                ? `−${format.money(data.discountCents)}${data.discountCode ? ` (${data.discountCode})` : ''}`
                : format.money(0)}
            </Descriptions.Item>
            <Descriptions.Item label={t('confirm.payAmount')}>
              <strong>{format.money(data.payCents)}</strong>
            </Descriptions.Item>
            <Descriptions.Item label={t('confirm.wallet')}>
              {format.money(data.walletCents)}
            </Descriptions.Item>
            <Descriptions.Item label={t('confirm.walletAfter')}>
              {format.money(data.walletAfterCents)}
            </Descriptions.Item>
            <Descriptions.Item label={t('confirm.tier')}>
              {data.tierBefore === data.tierAfter
                ? format.tier(data.tierAfter)
                : t('confirm.tierChange', {
                    before: format.tier(data.tierBefore),
                    after: format.tier(data.tierAfter),
                  })}
            </Descriptions.Item>
            <Descriptions.Item label={t('confirm.expires')}>
              {format.date(data.expiresAt)}
            </Descriptions.Item>
          </Descriptions>
          {hasUsableDiscount ? (
            <Checkbox
              checked={useDiscount}
              disabled={isLocked}
              onChange={(e) => setUseDiscount(e.target.checked)}
            >
              {t('confirm.useDiscount', { code: discount.code, percent: discount.percentOff })}
            </Checkbox>
          ) : null}
          {sku.canAutoRenew ? (
            <Flex gap={8} align="center">
              <Switch
                id="confirm-auto-renew"
                checked={autoRenew}
                disabled={isLocked}
                onChange={setAutoRenew}
              />
              <label htmlFor="confirm-auto-renew">{t('confirm.autoRenew')}</label>
            </Flex>
          ) : null}
          {!data.canPay ? (
            <Alert
              type="warning"
              showIcon
              message={t('confirm.insufficient', {
                missing: format.money(data.payCents - data.walletCents),
              })}
              action={
                <LinkButton to="/rpc/billings/charge" size="small" type="primary">
                  {t('confirm.goDeposit')}
                </LinkButton>
              }
            />
          ) : null}
          {isUnknown ? (
            <Alert type="warning" showIcon message={t('confirm.unknownOutcome')} />
          ) : null}
        </Flex>
      )}
    </Modal>
  );
}
