/**
 * The wizard's last step: what is bought and its price (from the catalogue, as the server charges it), how to pay,
 * then hub_buyDnNodeByWallet (or hub_buyDnNodeByCard when cards are configured) with the confirmed price and one
 * idempotency key per attempt (use-payment-attempt.ts). A card order is followed to its end (authentication,
 * polling) with its progress said in a live region. A paid node opens the list with the node marked.
 */
import type { TCardOrder, TDnNodeType, TDnSku } from '@rpc/contract';
import { Alert, Button, Flex, message } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { useCan } from '../../../lib/acting-account';
import { CardOrderProgress } from '../../../lib/card-order/card-order-progress';
import { useLocalizedNavigate } from '../../../lib/locale-path';
import { useNodeCardPayments } from '../api/get-card-payments';
import type { TBuyDnNodeByCardParams, TBuyDnNodeParams } from '../api/pay-dn-node';
import { useBuyDnNodeByCard, useBuyDnNodeByWallet } from '../api/pay-dn-node';
import { useDnFormat } from '../hooks/use-dn-format';
import { useNodeCardOrder } from '../hooks/use-node-card-order';
import { usePaymentAttempt } from '../hooks/use-payment-attempt';
import { listPathWithCreated } from '../utils/list-link';
import { monthlyCentsOf, quoteOf } from '../utils/pricing';
import type { TPayChannel } from './pay-method';
import { PayMethod, defaultCardId } from './pay-method';
import { PaymentAlerts } from './payment-alerts';
import { PriceSummary } from './price-summary';

export type TDnTerms = { chain: string; nodeType: TDnNodeType; region: string; months: number };

type TBuyAttempt =
  | { channel: 'wallet'; params: TBuyDnNodeParams }
  | { channel: 'card'; params: TBuyDnNodeByCardParams };

/** The answer to a payment: a node paid from the wallet, or a card order to follow. */
type TBuyAnswer = { channel: 'wallet'; nodeId: string } | { channel: 'card'; order: TCardOrder };

export function ReviewStep({
  sku,
  terms,
  onBack,
  onRefreshSku,
}: {
  sku: TDnSku;
  terms: TDnTerms;
  onBack: () => void;
  onRefreshSku: () => void;
}) {
  const { t } = useTranslation('dedicated-node');
  const format = useDnFormat();
  const navigate = useLocalizedNavigate();
  const canBill = useCan('billing');
  const payments = useNodeCardPayments(canBill);
  const buyByWallet = useBuyDnNodeByWallet();
  const buyByCard = useBuyDnNodeByCard();
  const attempt = usePaymentAttempt<TBuyAttempt>();
  const cardOrder = useNodeCardOrder(payments.status === 'on' ? payments.publishableKey : null);
  const { flow } = cardOrder;
  const [channel, setChannel] = useState<TPayChannel>('wallet');
  const [chosenCardId, setCardId] = useState<string | null>(null);
  const [isCardUnavailable, setCardUnavailable] = useState(false);

  const chain = sku.chains.find((c) => c.id === terms.chain);
  const region = sku.regions.find((r) => r.id === terms.region);
  const period = sku.periods.find((p) => p.months === terms.months);
  const monthlyCents = monthlyCentsOf(sku, terms.chain, terms.nodeType);
  const quote = period && monthlyCents !== null ? quoteOf(monthlyCents, period) : null;
  const unknown = attempt.unknownAttempt;
  const isBusy = attempt.isPaying || flow.isRunning;
  const isLocked = unknown !== null || isBusy;
  const payCents = unknown?.params.expectedCents ?? quote?.priceCents;
  const isByCard = payments.status === 'on' && channel === 'card' && !isCardUnavailable;
  const cardId = chosenCardId ?? (payments.status === 'on' ? defaultCardId(payments.cards) : null);

  const onPay = async () => {
    flow.reset();
    const outcome = await attempt.pay<TBuyAnswer>(
      (idempotencyKey) => {
        if (!quote) return null;
        const params = { ...terms, idempotencyKey, expectedCents: quote.priceCents };
        if (!isByCard) return { channel: 'wallet', params };
        return { channel: 'card', params: cardId ? { ...params, cardId } : params };
      },
      async (sent): Promise<TBuyAnswer> => {
        if (sent.channel === 'wallet') {
          const paid = await buyByWallet.mutateAsync(sent.params);
          return { channel: 'wallet', nodeId: paid.node.id };
        }
        return { channel: 'card', order: await buyByCard.mutateAsync(sent.params) };
      },
    );
    if (!outcome.isPaid) {
      if (outcome.failure === 'priceChanged') onRefreshSku();
      if (outcome.failure === 'cardUnavailable') {
        setCardUnavailable(true);
        setChannel('wallet');
      }
      return;
    }
    const answer = outcome.answer;
    if (answer.channel === 'wallet') {
      navigate(listPathWithCreated(answer.nodeId));
      return;
    }
    const end = await flow.follow(answer.order);
    switch (end?.phase) {
      case 'succeeded':
        navigate(listPathWithCreated(end.order.nodeId));
        return;
      case 'timedOut':
        // The order still settles on the server: the list shows the node once it is paid.
        void message.info(t('card.timedOut'));
        navigate(listPathWithCreated(end.order.nodeId));
        return;
      case 'credited':
        // Paid, but the node could not be ordered at that price: the money is in the wallet, which can pay now.
        setChannel('wallet');
        onRefreshSku();
        return;
      default:
        // Declined (the progress says why) or stopped: paying again is a new attempt with a new key.
        return;
    }
  };

  return (
    <Flex vertical gap={12}>
      {quote ? (
        <PriceSummary
          quote={quote}
          before={[
            {
              key: 'chain',
              label: t('columns.chain'),
              value: chain ? format.text(chain.name) : terms.chain,
            },
            { key: 'type', label: t('columns.nodeType'), value: t(`nodeType.${terms.nodeType}`) },
            {
              key: 'region',
              label: t('columns.region'),
              value: region ? format.text(region.name) : terms.region,
            },
          ]}
        />
      ) : (
        // The catalogue changed under the wizard (a price refresh dropped the offer): choose again.
        <Alert type="error" showIcon message={t('wizard.notOffered')} />
      )}
      {canBill ? (
        <PayMethod
          payments={payments}
          channel={isByCard ? 'card' : 'wallet'}
          onChannelChange={setChannel}
          cardId={unknown?.channel === 'card' ? (unknown.params.cardId ?? cardId) : cardId}
          onCardChange={setCardId}
          isCardUnavailable={isCardUnavailable}
          isLocked={isLocked}
        />
      ) : (
        <Alert type="info" showIcon message={t('wizard.noPermission')} />
      )}
      <PaymentAlerts
        failure={attempt.failure}
        unknownExtra={
          <LinkButton to="/rpc/dedicated-node" size="small">
            {t('pay.checkNodes')}
          </LinkButton>
        }
      />
      {payments.status === 'on' ? (
        <CardOrderProgress state={flow.state} words={cardOrder.words} />
      ) : null}
      <Flex gap={8} wrap>
        <Button onClick={onBack} disabled={isLocked}>
          {t('wizard.back')}
        </Button>
        <Button
          type="primary"
          loading={isBusy}
          disabled={!canBill || payCents === undefined}
          onClick={() => void onPay()}
        >
          {payCents === undefined
            ? t('pay.payNoAmount')
            : unknown
              ? t('pay.retry', { amount: format.money(payCents) })
              : t('pay.pay', { amount: format.money(payCents) })}
        </Button>
      </Flex>
    </Flex>
  );
}
