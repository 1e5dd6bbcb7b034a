/**
 * Confirms a purchase before paying (hub_skuFirstConfirm): price, discount, what is paid, the wallet before and
 * after, the tier before → after and the expiry; "not enough balance" leads to the deposit page. Paying sends
 * the confirmed price and one idempotency key per attempt; a retry after a lost answer reuses that key. When card
 * payments are configured the buyer may pay by card instead (purchase-by-card.tsx).
 */
import type { TDiscountDetail, TSku } from '@rpc/contract';
import { ERROR_CODES } from '@rpc/contract';
import { Alert, Button, Checkbox, Flex, Modal, Radio, Switch, message } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { RpcCallError } from '../../../lib/rpc-client';
import type { TBuyPackageParams } from '../api/buy-package';
import { useBuyPackage } from '../api/buy-package';
import { useSkuQuote } from '../api/get-sku-quote';
import { useBillingFormat } from '../hooks/use-billing-format';
import { useCardPayments } from '../hooks/use-card-payments';
import { isOutcomeUnknown, newIdempotencyKey } from '../../../lib/payment-attempt';
import { CardPurchasePane } from './purchase-by-card';
import { ErrorState, LoadingState } from './query-state';
import { QuoteDescriptions } from './quote-descriptions';

export type TPurchaseConfirmModalProps = {
  sku: TSku;
  discount: TDiscountDetail | null | undefined;
  onClose: () => void;
};

/** Mounted per purchase: closing and opening again is a new attempt with a new key. */
export function PurchaseConfirmModal({ sku, discount, onClose }: TPurchaseConfirmModalProps) {
  const { t } = useTranslation('billing');
  const { t: tc } = useTranslation('cards');
  const format = useBillingFormat();
  const payments = useCardPayments();
  const [method, setMethod] = useState<'wallet' | 'card'>('wallet');
  const isByCard = payments.status === 'on' && method === 'card';
  const hasUsableDiscount = !!discount && discount.usedAt === null;
  const [useDiscount, setUseDiscount] = useState(true);
  const [autoRenew, setAutoRenew] = useState(false);
  const [attemptKey, setAttemptKey] = useState(newIdempotencyKey);
  /** the terms sent when the answer was lost: a retry sends exactly these again */
  const [unknownAttempt, setUnknownAttempt] = useState<TBuyPackageParams | null>(null);
  const quote = useSkuQuote(isByCard ? null : { skuId: sku.id, useDiscount });
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

  const renderChoice = (isChoiceLocked: boolean) =>
    payments.status === 'on' ? (
      <fieldset className="billing-pay-method">
        <legend>{tc('method.label')}</legend>
        <Radio.Group
          value={method}
          disabled={isChoiceLocked}
          onChange={(e) => setMethod(e.target.value as 'wallet' | 'card')}
          options={[
            { value: 'wallet', label: tc('method.wallet') },
            { value: 'card', label: tc('method.card') },
          ]}
        />
      </fieldset>
    ) : null;

  const renderControls = (isControlLocked: boolean) => (
    <>
      {hasUsableDiscount ? (
        <Checkbox
          checked={useDiscount}
          disabled={isControlLocked}
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
            disabled={isControlLocked}
            onChange={setAutoRenew}
          />
          <label htmlFor="confirm-auto-renew">
            {isByCard ? tc('purchase.autoRenew') : t('confirm.autoRenew')}
          </label>
        </Flex>
      ) : null}
    </>
  );

  return (
    <Modal
      open
      title={t('confirm.title', { name })}
      onCancel={onClose}
      maskClosable={!buy.isPending && !isByCard}
      footer={
        isByCard ? null : (
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
        )
      }
    >
      {isByCard ? (
        <CardPurchasePane
          sku={sku}
          publishableKey={payments.publishableKey}
          cards={payments.cards}
          useDiscount={useDiscount}
          autoRenew={autoRenew}
          renderChoice={renderChoice}
          renderControls={renderControls}
          onClose={onClose}
        />
      ) : (
        <Flex vertical gap={12}>
          {renderChoice(isLocked)}
          {quote.isLoading ? (
            <LoadingState label={t('confirm.loading')} rows={5} />
          ) : !data ? (
            <ErrorState message={t('confirm.loadFailed')} onRetry={() => void quote.refetch()} />
          ) : (
            <Flex vertical gap={12}>
              <QuoteDescriptions quote={data} hasWallet />
              {renderControls(isLocked)}
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
        </Flex>
      )}
    </Modal>
  );
}
