/**
 * "Top up by card" on /rpc/billings/charge: an amount in US dollars ($5 to $10,000, two decimals at most), the
 * card to charge, then the order flow (hub_createStripeOrder → authenticate if asked → poll until credited).
 * One idempotency key per attempt; a retry after a lost answer sends the same key and terms again.
 */
import type { TCard } from '@rpc/contract';
import { TOP_UP_MAX_CENTS, TOP_UP_MIN_CENTS, formatCents } from '@rpc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Flex, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CardOrderProgress } from '../../../lib/card-order/card-order-progress';
import { useCardOrder } from '../../../lib/card-order/use-card-order';
import { isOutcomeUnknown, newIdempotencyKey } from '../../../lib/payment-attempt';
import { createCardSetup } from '../api/create-card-setup';
import type { TCardTopUpParams } from '../api/create-card-top-up';
import { useCreateCardTopUp } from '../api/create-card-top-up';
import { invalidateWallet } from '../api/wallet-query-key';
import { useBillingFormat } from '../hooks/use-billing-format';
import { useBillingCardOrderWords } from '../hooks/use-card-order-words';
import { useCardPayments } from '../hooks/use-card-payments';
import { parseTopUpAmount } from '../utils/top-up';
import { AddCardModal } from './add-card-modal';
import { CardSelect, pickCard } from './card-select';
import { ErrorState, LoadingState } from './query-state';

function TopUpForm({ publishableKey, cards }: { publishableKey: string; cards: TCard[] }) {
  const { t } = useTranslation('cards');
  const format = useBillingFormat();
  const queryClient = useQueryClient();
  const create = useCreateCardTopUp();
  const flow = useCardOrder(publishableKey, invalidateWallet);
  const orderWords = useBillingCardOrderWords();
  const [amount, setAmount] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [isAdding, setAdding] = useState(false);
  const [attemptKey, setAttemptKey] = useState(newIdempotencyKey);
  /** the terms sent when the answer was lost: a retry sends exactly these again */
  const [unknownAttempt, setUnknownAttempt] = useState<TCardTopUpParams | null>(null);
  const card = pickCard(cards, chosenId);
  const parsed = parseTopUpAmount(amount);
  const isBusy = create.isPending || flow.isRunning;
  const isLocked = isBusy || unknownAttempt !== null;

  const problemText = (p: 'empty' | 'format' | 'min' | 'max') =>
    p === 'min'
      ? t('topUp.min', { amount: format.money(TOP_UP_MIN_CENTS) })
      : p === 'max'
        ? t('topUp.max', { amount: format.money(TOP_UP_MAX_CENTS) })
        : t(`topUp.${p}`);

  const onPay = async () => {
    let params = unknownAttempt;
    if (!params) {
      if (!parsed.ok) {
        setProblem(problemText(parsed.problem));
        return;
      }
      if (!card) return;
      params = { amountCents: parsed.cents, idempotencyKey: attemptKey, cardId: card.id };
    }
    setProblem(null);
    flow.reset();
    try {
      const order = await create.mutateAsync(params);
      // The order is this attempt; whatever it becomes, the next payment is another.
      setUnknownAttempt(null);
      setAttemptKey(newIdempotencyKey());
      const outcome = await flow.follow(order);
      if (outcome && (outcome.phase === 'succeeded' || outcome.phase === 'credited')) setAmount('');
    } catch (error) {
      if (isOutcomeUnknown(error)) {
        setUnknownAttempt(params);
        return;
      }
      setUnknownAttempt(null);
      setAttemptKey(newIdempotencyKey());
    }
  };

  const payCents = unknownAttempt?.amountCents ?? (parsed.ok ? parsed.cents : null);

  return (
    <Flex vertical gap={12}>
      <Form layout="vertical" onFinish={() => void onPay()} aria-label={t('topUp.title')}>
        <Form.Item
          label={t('topUp.amount')}
          htmlFor="top-up-amount"
          validateStatus={problem ? 'error' : undefined}
          help={
            problem ??
            t('topUp.amountHelp', {
              min: format.money(TOP_UP_MIN_CENTS),
              max: format.money(TOP_UP_MAX_CENTS),
            })
          }
        >
          <Input
            id="top-up-amount"
            prefix="$"
            inputMode="decimal"
            autoComplete="off"
            value={unknownAttempt ? formatCents(unknownAttempt.amountCents) : amount}
            disabled={isLocked}
            onChange={(e) => {
              setAmount(e.target.value);
              setProblem(null);
            }}
            style={{ maxWidth: 240 }}
          />
        </Form.Item>
        <Form.Item label={t('topUp.card')} htmlFor="top-up-card">
          {card ? (
            <CardSelect
              id="top-up-card"
              cards={cards}
              value={unknownAttempt?.cardId ?? card.id}
              disabled={isLocked}
              onChange={setChosenId}
            />
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
        </Form.Item>
        {unknownAttempt ? (
          <Alert
            type="warning"
            showIcon
            message={t('order.unknownOutcome')}
            style={{ marginBottom: 16 }}
          />
        ) : null}
        <Form.Item style={{ marginBottom: 0 }}>
          <Button
            type="primary"
            htmlType="submit"
            loading={isBusy}
            disabled={!card && !unknownAttempt}
          >
            {payCents === null
              ? t('topUp.payNoAmount')
              : unknownAttempt
                ? t('topUp.retryPay', { amount: format.money(payCents) })
                : t('topUp.pay', { amount: format.money(payCents) })}
          </Button>
        </Form.Item>
      </Form>
      <CardOrderProgress state={flow.state} words={orderWords} />
      {isAdding ? (
        <AddCardModal
          publishableKey={publishableKey}
          createSetup={createCardSetup}
          onSaved={async (cardId) => {
            await invalidateWallet(queryClient);
            if (cardId) setChosenId(cardId);
            setAdding(false);
          }}
          onClose={() => setAdding(false)}
        />
      ) : null}
    </Flex>
  );
}

export function TopUpByCard() {
  const { t } = useTranslation('cards');
  const payments = useCardPayments();
  return (
    <Card
      title={
        <h2 id="top-up-card-title" className="billing-card-title">
          {t('topUp.title')}
        </h2>
      }
      aria-labelledby="top-up-card-title"
      role="region"
    >
      {payments.status === 'loading' ? (
        <LoadingState label={t('cards.loading')} rows={2} />
      ) : payments.status === 'off' ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notConfigured')} />
      ) : payments.status === 'error' ? (
        <ErrorState message={t('cards.loadFailed')} onRetry={payments.retry} />
      ) : (
        <TopUpForm publishableKey={payments.publishableKey} cards={payments.cards} />
      )}
    </Card>
  );
}
