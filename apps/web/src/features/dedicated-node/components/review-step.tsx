/**
 * The wizard's last step: what is bought and its price (from the catalogue, as the server charges it), how to pay,
 * then hub_buyDnNodeByWallet (or by card when configured) with the confirmed price and one idempotency key per
 * attempt (use-payment-attempt.ts). A paid node opens the list with the node marked.
 */
import type { TDnNodeType, TDnSku } from '@rpc/contract';
import { Alert, Button, Flex, message } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { useCan } from '../../../lib/acting-account';
import { useLocalizedNavigate } from '../../../lib/locale-path';
import { useNodeCardPayments } from '../api/get-card-payments';
import type { TBuyDnNodeByCardParams, TBuyDnNodeParams } from '../api/pay-dn-node';
import { useBuyDnNodeByCard, useBuyDnNodeByWallet } from '../api/pay-dn-node';
import { useDnFormat } from '../hooks/use-dn-format';
import { usePaymentAttempt } from '../hooks/use-payment-attempt';
import { listPathWithCreated } from '../utils/list-link';
import { cardOrderResult } from '../utils/payment-attempt';
import { monthlyCentsOf, quoteOf } from '../utils/pricing';
import type { TPayChannel } from './pay-method';
import { PayMethod, defaultCardId } from './pay-method';
import { PaymentAlerts } from './payment-alerts';
import { PriceSummary } from './price-summary';

export type TDnTerms = { chain: string; nodeType: TDnNodeType; region: string; months: number };

type TBuyAttempt =
  | { channel: 'wallet'; params: TBuyDnNodeParams }
  | { channel: 'card'; params: TBuyDnNodeByCardParams };

type TBought = { result: 'paid' | 'processing' | 'declined'; nodeId: string | null };

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
  const [channel, setChannel] = useState<TPayChannel>('wallet');
  const [chosenCardId, setCardId] = useState<string | null>(null);
  const [isCardUnavailable, setCardUnavailable] = useState(false);

  const chain = sku.chains.find((c) => c.id === terms.chain);
  const region = sku.regions.find((r) => r.id === terms.region);
  const period = sku.periods.find((p) => p.months === terms.months);
  const monthlyCents = monthlyCentsOf(sku, terms.chain, terms.nodeType);
  const quote = period && monthlyCents !== null ? quoteOf(monthlyCents, period) : null;
  const unknown = attempt.unknownAttempt;
  const isLocked = unknown !== null || attempt.isPaying;
  const payCents = unknown?.params.expectedCents ?? quote?.priceCents;
  const isByCard = payments.status === 'on' && channel === 'card' && !isCardUnavailable;
  const cardId = chosenCardId ?? (payments.status === 'on' ? defaultCardId(payments.cards) : null);

  const onPay = async () => {
    const outcome = await attempt.pay<TBought>(
      (idempotencyKey) => {
        if (!quote) return null;
        const params = { ...terms, idempotencyKey, expectedCents: quote.priceCents };
        if (!isByCard) return { channel: 'wallet', params };
        return { channel: 'card', params: cardId ? { ...params, cardId } : params };
      },
      async (sent): Promise<TBought> => {
        if (sent.channel === 'wallet') {
          const paid = await buyByWallet.mutateAsync(sent.params);
          return { result: 'paid', nodeId: paid.node.id };
        }
        const order = await buyByCard.mutateAsync(sent.params);
        return { result: cardOrderResult(order), nodeId: order.nodeId };
      },
    );
    if (outcome.isPaid) {
      const { result, nodeId } = outcome.answer;
      if (result === 'declined') {
        attempt.fail('cardFailed');
        return;
      }
      if (result === 'processing') void message.info(t('pay.cardProcessing'));
      navigate(listPathWithCreated(nodeId));
      return;
    }
    if (outcome.failure === 'priceChanged') onRefreshSku();
    if (outcome.failure === 'cardUnavailable') {
      setCardUnavailable(true);
      setChannel('wallet');
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
      <Flex gap={8} wrap>
        <Button onClick={onBack} disabled={isLocked}>
          {t('wizard.back')}
        </Button>
        <Button
          type="primary"
          loading={attempt.isPaying}
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
