/**
 * Saving a card: Stripe.js is loaded only now (lib/stripe.ts), the card fields are Stripe's own (CardElement), and
 * the card is confirmed in the browser with the SetupIntent the server made (hub_createStripeSetup, or
 * hub_createAutoRenewStripeSetup for one package). Errors stay in the dialog, beside the fields.
 */
import type { TResult } from '@rpc/contract';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeCardElementChangeEvent, StripeError } from '@stripe/stripe-js';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Modal, Typography } from 'antd';
import type { FormEvent } from 'react';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureReason } from '../../../lib/card-order/follow-card-order';
import { RpcCallError, isCancelledError } from '../../../lib/rpc-client';
import { getStripe } from '../../../lib/stripe';
import { useBillingFormat } from '../hooks/use-billing-format';
import { ErrorState, LoadingState } from './query-state';
import './cards.css';

export type TSetupIntent = TResult<'hub_createStripeSetup'>;

export type TAddCardModalProps = {
  publishableKey: string;
  title?: string;
  /** asks the server for the SetupIntent to confirm (once per dialog, again only after it went bad) */
  createSetup: () => Promise<TSetupIntent>;
  /** the card is confirmed with Stripe: its id (pm_…) when Stripe said it. The caller closes the dialog. */
  onSaved: (cardId: string | null) => Promise<void> | void;
  onClose: () => void;
};

/** Stripe.js for this key, loaded when the dialog first opens; kept for the next card form. */
function useLoadedStripe(publishableKey: string) {
  return useQuery({
    queryKey: ['stripe-js', publishableKey],
    queryFn: () => getStripe(publishableKey),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    structuralSharing: false,
  });
}

function cardIdOf(paymentMethod: string | { id: string } | null | undefined): string | null {
  if (!paymentMethod) return null;
  return typeof paymentMethod === 'string' ? paymentMethod : paymentMethod.id;
}

function AddCardForm({
  createSetup,
  onSaved,
  onClose,
}: Omit<TAddCardModalProps, 'publishableKey'>) {
  const { t } = useTranslation('cards');
  const { t: tb } = useTranslation('billing');
  const format = useBillingFormat();
  const stripe = useStripe();
  const elements = useElements();
  const labelId = useId();
  const fieldErrorId = useId();
  const setup = useRef<TSetupIntent | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);

  const stripeReason = (e: StripeError) => {
    const reason = failureReason(e.decline_code ?? e.code ?? null);
    return reason !== 'generic' ? t(`failure.${reason}`) : (e.message ?? t('failure.generic'));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card) return;
    setBusy(true);
    setError(null);
    try {
      setup.current ??= await createSetup();
      const result = await stripe.confirmCardSetup(setup.current.clientSecret, {
        payment_method: { card },
      });
      if (result.error) {
        // A card problem can be fixed in the fields and sent again; anything else needs a new SetupIntent.
        if (result.error.type !== 'card_error' && result.error.type !== 'validation_error') {
          setup.current = null;
        }
        setError(t('addCard.failed', { reason: stripeReason(result.error) }));
        return;
      }
      await onSaved(cardIdOf(result.setupIntent.payment_method));
    } catch (e) {
      if (isCancelledError(e)) return;
      const reason =
        e instanceof RpcCallError
          ? format.lang === 'zh'
            ? e.messageZh
            : e.message
          : t('failure.generic');
      setError(t('addCard.failed', { reason }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void onSubmit(e)} aria-labelledby={labelId}>
      <Flex vertical gap={12}>
        <Typography.Text id={labelId} strong>
          {t('addCard.fields')}
        </Typography.Text>
        <Flex vertical gap={4}>
          <div
            className="billing-card-field"
            role="group"
            aria-labelledby={labelId}
            aria-describedby={fieldError ? fieldErrorId : undefined}
          >
            <CardElement
              options={{ style: { base: { fontSize: '14px' } } }}
              onChange={(e: StripeCardElementChangeEvent) =>
                setFieldError(e.error?.message ?? null)
              }
            />
          </div>
          <Typography.Text type="danger" id={fieldErrorId} aria-live="polite">
            {fieldError}
          </Typography.Text>
        </Flex>
        <Typography.Text type="secondary">{t('addCard.help')}</Typography.Text>
        {error ? <Alert type="error" showIcon message={error} /> : null}
        <Flex gap={8} justify="flex-end" wrap>
          <Button onClick={onClose} disabled={isBusy}>
            {tb('cancel')}
          </Button>
          <Button type="primary" htmlType="submit" loading={isBusy} disabled={!stripe}>
            {t('addCard.save')}
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}

/** Mounted per use: closing and opening again starts over. */
export function AddCardModal({ publishableKey, title, ...form }: TAddCardModalProps) {
  const { t } = useTranslation('cards');
  const format = useBillingFormat();
  const loaded = useLoadedStripe(publishableKey);
  const stripe: Stripe | null | undefined = loaded.data;

  return (
    <Modal
      open
      title={title ?? t('addCard.title')}
      onCancel={form.onClose}
      footer={null}
      maskClosable={false}
    >
      {loaded.isLoading ? (
        <LoadingState label={t('addCard.loadingForm')} rows={2} />
      ) : !stripe ? (
        <ErrorState message={t('addCard.formFailed')} onRetry={() => void loaded.refetch()} />
      ) : (
        <Elements stripe={stripe} options={{ locale: format.lang }}>
          <AddCardForm {...form} />
        </Elements>
      )}
    </Modal>
  );
}
