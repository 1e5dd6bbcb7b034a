/**
 * Renews a node for more months (hub_renewDnNodeByWallet, or hub_renewDnNodeByCard when cards are configured): the
 * period with its discount, the price from the catalogue and the expiry after paying, then one payment attempt as
 * the billing purchase dialog pays (use-payment-attempt.ts); a card order is followed to its end in a live region.
 * Mounted per opening: opening again is a new attempt.
 */
import type { TCardOrder, TDnNode } from '@rpc/contract';
import { addMonthsUtc } from '@rpc/contract';
import { Alert, Button, Flex, Modal, Radio, Skeleton, message } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../lib/acting-account';
import { CardOrderProgress } from '../../../lib/card-order/card-order-progress';
import { useNodeCardPayments } from '../api/get-card-payments';
import { useDnSku } from '../api/get-dn-sku';
import type { TRenewDnNodeByCardParams, TRenewDnNodeParams } from '../api/pay-dn-node';
import { useRenewDnNodeByCard, useRenewDnNodeByWallet } from '../api/pay-dn-node';
import { useDnFormat } from '../hooks/use-dn-format';
import { useNodeCardOrder } from '../hooks/use-node-card-order';
import { useNodeName } from '../hooks/use-node-name';
import { usePaymentAttempt } from '../hooks/use-payment-attempt';
import { monthlyCentsOf, quoteOf } from '../utils/pricing';
import type { TPayChannel } from './pay-method';
import { PayMethod, defaultCardId } from './pay-method';
import { PaymentAlerts } from './payment-alerts';
import { PriceSummary } from './price-summary';

type TRenewAttempt =
  | { channel: 'wallet'; params: TRenewDnNodeParams }
  | { channel: 'card'; params: TRenewDnNodeByCardParams };

/** The answer to a payment: renewed from the wallet, or a card order to follow. */
type TRenewAnswer = { channel: 'wallet' } | { channel: 'card'; order: TCardOrder };

export function RenewNodeModal({ node, onClose }: { node: TDnNode; onClose: () => void }) {
  const { t } = useTranslation('dedicated-node');
  const format = useDnFormat();
  const nodeName = useNodeName()(node);
  const sku = useDnSku();
  const payments = useNodeCardPayments(useCan('billing'));
  const renewByWallet = useRenewDnNodeByWallet();
  const renewByCard = useRenewDnNodeByCard();
  const attempt = usePaymentAttempt<TRenewAttempt>();
  const cardOrder = useNodeCardOrder(
    payments.status === 'on' ? payments.publishableKey : null,
    nodeName,
  );
  const { flow } = cardOrder;
  const [chosenMonths, setMonths] = useState<number | null>(null);
  const [channel, setChannel] = useState<TPayChannel>('wallet');
  const [chosenCardId, setCardId] = useState<string | null>(null);
  const [isCardUnavailable, setCardUnavailable] = useState(false);

  const periods = sku.data?.periods ?? [];
  const unknown = attempt.unknownAttempt;
  const isBusy = attempt.isPaying || flow.isRunning;
  const isLocked = unknown !== null || isBusy;
  const months = unknown?.params.months ?? chosenMonths ?? periods[0]?.months ?? null;
  const period = periods.find((p) => p.months === months);
  const monthlyCents = sku.data ? monthlyCentsOf(sku.data, node.chain, node.nodeType) : null;
  const quote = period && monthlyCents !== null ? quoteOf(monthlyCents, period) : null;
  const payCents = unknown?.params.expectedCents ?? quote?.priceCents;
  const isByCard = payments.status === 'on' && channel === 'card' && !isCardUnavailable;
  const cardId = chosenCardId ?? (payments.status === 'on' ? defaultCardId(payments.cards) : null);
  const expiresAfter =
    months === null ? null : addMonthsUtc(Math.max(node.expiresAt, Date.now()), months);

  const onPay = async () => {
    flow.reset();
    const outcome = await attempt.pay<TRenewAnswer>(
      (idempotencyKey) => {
        if (!quote) return null;
        const params = {
          nodeId: node.id,
          months: quote.months,
          idempotencyKey,
          expectedCents: quote.priceCents,
        };
        if (!isByCard) return { channel: 'wallet', params };
        return { channel: 'card', params: cardId ? { ...params, cardId } : params };
      },
      async (sent): Promise<TRenewAnswer> => {
        if (sent.channel === 'wallet') {
          await renewByWallet.mutateAsync(sent.params);
          return { channel: 'wallet' };
        }
        return { channel: 'card', order: await renewByCard.mutateAsync(sent.params) };
      },
    );
    if (!outcome.isPaid) {
      if (outcome.failure === 'priceChanged') void sku.refetch();
      if (outcome.failure === 'cardUnavailable') {
        setCardUnavailable(true);
        setChannel('wallet');
      }
      return;
    }
    if (outcome.answer.channel === 'wallet') {
      void message.success(t('renew.success', { node: nodeName }));
      onClose();
      return;
    }
    const end = await flow.follow(outcome.answer.order);
    switch (end?.phase) {
      case 'succeeded':
        void message.success(t('renew.success', { node: nodeName }));
        onClose();
        return;
      case 'timedOut':
        // The order still settles on the server: the list shows the new expiry once it is paid.
        void message.info(t('card.timedOut'));
        onClose();
        return;
      case 'credited':
        // Paid, but the node could no longer be renewed: the money is in the wallet (the dialog says so).
        setChannel('wallet');
        return;
      default:
        // Declined (the progress says why) or stopped: paying again is a new attempt with a new key.
        return;
    }
  };

  return (
    <Modal
      open
      title={t('renew.title', { node: nodeName })}
      onCancel={onClose}
      maskClosable={!isBusy}
      footer={
        <Flex gap={8} justify="flex-end" wrap>
          <Button onClick={onClose} disabled={attempt.isPaying}>
            {t('pay.cancel')}
          </Button>
          <Button
            type="primary"
            loading={isBusy}
            disabled={payCents === undefined || (sku.isFetching && unknown === null)}
            onClick={() => void onPay()}
          >
            {payCents === undefined
              ? t('pay.payNoAmount')
              : unknown
                ? t('pay.retry', { amount: format.money(payCents) })
                : t('pay.pay', { amount: format.money(payCents) })}
          </Button>
        </Flex>
      }
    >
      {sku.isLoading ? (
        <div role="status" aria-label={t('renew.loading')}>
          <Skeleton active paragraph={{ rows: 4 }} />
        </div>
      ) : !sku.data ? (
        <Alert
          type="error"
          showIcon
          message={t('renew.loadFailed')}
          action={<Button onClick={() => void sku.refetch()}>{t('retry')}</Button>}
        />
      ) : monthlyCents === null ? (
        <Alert type="error" showIcon message={t('renew.unpriced')} />
      ) : (
        <Flex vertical gap={12}>
          <fieldset className="dn-fieldset">
            <legend>{t('renew.period')}</legend>
            <Radio.Group
              value={months}
              disabled={isLocked}
              onChange={(e) => setMonths(e.target.value as number)}
              options={periods.map((p) => ({
                value: p.months,
                label:
                  p.discountPercent > 0
                    ? t('periodWithDiscount', {
                        months: t('months', { count: p.months }),
                        percent: p.discountPercent,
                      })
                    : t('months', { count: p.months }),
              }))}
            />
          </fieldset>
          {quote ? (
            <PriceSummary
              quote={quote}
              before={[{ key: 'node', label: t('renew.node'), value: nodeName }]}
              after={[
                { key: 'now', label: t('renew.expiresNow'), value: format.date(node.expiresAt) },
                { key: 'after', label: t('renew.expiresAfter'), value: format.date(expiresAfter) },
              ]}
            />
          ) : null}
          <PayMethod
            payments={payments}
            channel={isByCard ? 'card' : 'wallet'}
            onChannelChange={setChannel}
            cardId={unknown?.channel === 'card' ? (unknown.params.cardId ?? cardId) : cardId}
            onCardChange={setCardId}
            isCardUnavailable={isCardUnavailable}
            isLocked={isLocked}
          />
          <PaymentAlerts failure={attempt.failure} />
          {payments.status === 'on' ? (
            <CardOrderProgress state={flow.state} words={cardOrder.words} />
          ) : null}
        </Flex>
      )}
    </Modal>
  );
}
