/**
 * The card side of the purchase confirmation: the card quote (hub_skuFirstConfirmCard), the card to charge (or a
 * way to add one), then hub_buyPackageByCard with the confirmed price and the order flow. One idempotency key per
 * opening of the dialog; it changes only after a definite refusal or a failed payment, and a retry after a lost
 * answer sends the same key and terms again, so a package is paid once.
 */
import type { TCard, TSku } from '@rpc/contract';
import { ERROR_CODES } from '@rpc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Flex, Typography, message } from 'antd';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CardOrderProgress } from '../../../lib/card-order/card-order-progress';
import { useCardOrder } from '../../../lib/card-order/use-card-order';
import { isOutcomeUnknown, newIdempotencyKey } from '../../../lib/payment-attempt';
import { RpcCallError } from '../../../lib/rpc-client';
import type { TBuyPackageByCardParams } from '../api/buy-package-by-card';
import { useBuyPackageByCard } from '../api/buy-package-by-card';
import { createCardSetup } from '../api/create-card-setup';
import { useCardQuote } from '../api/get-card-quote';
import { invalidateWallet } from '../api/wallet-query-key';
import { useBillingFormat } from '../hooks/use-billing-format';
import { useBillingCardOrderWords } from '../hooks/use-card-order-words';
import { AddCardModal } from './add-card-modal';
import { CardSelect, pickCard } from './card-select';
import { ErrorState, LoadingState } from './query-state';
import { QuoteDescriptions } from './quote-descriptions';

export type TCardPurchasePaneProps = {
  sku: TSku;
  publishableKey: string;
  cards: TCard[];
  useDiscount: boolean;
  autoRenew: boolean;
  /** the payment method choice, above the quote */
  renderChoice: (isLocked: boolean) => ReactNode;
  /** the discount and auto-renew controls, under the quote */
  renderControls: (isLocked: boolean) => ReactNode;
  onClose: () => void;
};

export function CardPurchasePane({
  sku,
  publishableKey,
  cards,
  useDiscount,
  autoRenew,
  renderChoice,
  renderControls,
  onClose,
}: TCardPurchasePaneProps) {
  const { t } = useTranslation('cards');
  const { t: tb } = useTranslation('billing');
  const format = useBillingFormat();
  const queryClient = useQueryClient();
  const quote = useCardQuote({ skuId: sku.id, useDiscount });
  const buy = useBuyPackageByCard();
  const flow = useCardOrder(publishableKey, invalidateWallet);
  const orderWords = useBillingCardOrderWords();
  const [attemptKey, setAttemptKey] = useState(newIdempotencyKey);
  const [unknownAttempt, setUnknownAttempt] = useState<TBuyPackageByCardParams | null>(null);
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [isAdding, setAdding] = useState(false);
  const data = quote.data;
  const card = pickCard(cards, chosenId ?? data?.card?.id ?? null);
  const phase = flow.state.phase;
  const isFinished = phase === 'succeeded' || phase === 'credited' || phase === 'timedOut';
  const isBusy = buy.isPending || flow.isRunning;
  const isUnknown = unknownAttempt !== null;
  const isLocked = isBusy || isUnknown || isFinished;
  const name = format.text(sku.name);

  const onPay = async () => {
    const params: TBuyPackageByCardParams | null =
      unknownAttempt ??
      (data && card
        ? {
            skuId: sku.id,
            idempotencyKey: attemptKey,
            cardId: card.id,
            useDiscount,
            autoRenew,
            expectedPayCents: data.payCents,
          }
        : null);
    if (!params) return;
    flow.reset();
    try {
      const order = await buy.mutateAsync(params);
      setUnknownAttempt(null);
      const outcome = await flow.follow(order);
      if (outcome?.phase === 'succeeded') void message.success(tb('confirm.success', { name }));
      // A failed payment charged nothing: paying again is a new attempt.
      if (outcome?.phase === 'failed') setAttemptKey(newIdempotencyKey());
    } catch (error) {
      if (isOutcomeUnknown(error)) {
        setUnknownAttempt(params);
        return;
      }
      setUnknownAttempt(null);
      setAttemptKey(newIdempotencyKey());
      const code = error instanceof RpcCallError ? error.code : null;
      if (code === ERROR_CODES.PRICE_CHANGED) void quote.refetch();
      if (code === ERROR_CODES.CARD_REQUIRED || code === ERROR_CODES.NOT_FOUND) {
        void invalidateWallet(queryClient);
      }
    }
  };

  const payCents = unknownAttempt?.expectedPayCents ?? data?.payCents;
  const canPay = isUnknown || (!!data && !!card && !quote.isFetching && !isBusy);

  return (
    <Flex vertical gap={12}>
      {renderChoice(isLocked)}
      {quote.isLoading ? (
        <LoadingState label={tb('confirm.loading')} rows={5} />
      ) : !data ? (
        <ErrorState message={tb('confirm.loadFailed')} onRetry={() => void quote.refetch()} />
      ) : (
        <>
          <QuoteDescriptions quote={data} hasWallet={false} />
        </>
      )}
      {card ? (
        <Flex vertical gap={4}>
          <label htmlFor="purchase-card">
            <Typography.Text>{t('method.cardToCharge')}</Typography.Text>
          </label>
          <CardSelect
            id="purchase-card"
            cards={cards}
            value={unknownAttempt?.cardId ?? card.id}
            disabled={isLocked}
            onChange={setChosenId}
          />
        </Flex>
      ) : (
        <Alert
          type="info"
          showIcon
          message={t('method.noCard')}
          action={
            <Button size="small" type="primary" onClick={() => setAdding(true)}>
              {t('method.addCard')}
            </Button>
          }
        />
      )}
      {renderControls(isLocked)}
      {isUnknown ? <Alert type="warning" showIcon message={t('order.unknownOutcome')} /> : null}
      <CardOrderProgress state={flow.state} words={orderWords} />
      <Flex gap={8} justify="flex-end" wrap>
        {isFinished ? (
          <Button type="primary" onClick={onClose}>
            {phase === 'timedOut' ? t('purchase.close') : t('purchase.done')}
          </Button>
        ) : (
          <>
            <Button onClick={onClose} disabled={buy.isPending}>
              {tb('cancel')}
            </Button>
            <Button type="primary" loading={isBusy} disabled={!canPay} onClick={() => void onPay()}>
              {payCents === undefined
                ? t('purchase.payNoAmount')
                : isUnknown
                  ? t('purchase.retryPay', { amount: format.money(payCents) })
                  : t('purchase.pay', { amount: format.money(payCents) })}
            </Button>
          </>
        )}
      </Flex>
      {isAdding ? (
        <AddCardModal
          publishableKey={publishableKey}
          createSetup={createCardSetup}
          onSaved={async (cardId) => {
            await invalidateWallet(queryClient);
            if (cardId) setChosenId(cardId);
            void quote.refetch();
            setAdding(false);
            void message.success(t('addCard.saved'));
          }}
          onClose={() => setAdding(false)}
        />
      ) : null}
    </Flex>
  );
}
