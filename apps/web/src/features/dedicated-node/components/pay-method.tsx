/**
 * How to pay for a node: the wallet, or a saved card when card payments are configured (useNodeCardPayments). Once
 * the server said card payments are not available (10803, 10802: Stripe not configured or not answering) the card
 * stays offered but disabled, with why.
 */
import type { TCard } from '@rpc/contract';
import { Alert, Flex, Radio, Select } from 'antd';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import type { TNodeCardPayments } from '../api/get-card-payments';

export type TPayChannel = 'wallet' | 'card';

/** The card charged unless another is chosen: the default one, else the first that has not expired. */
export function defaultCardId(cards: readonly TCard[]): string | null {
  const usable = cards.filter((c) => !c.isExpired);
  return (usable.find((c) => c.isDefault) ?? usable[0])?.id ?? null;
}

function brandName(brand: TCard['brand']): string {
  const words = brand.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export type TPayMethodProps = {
  payments: TNodeCardPayments;
  channel: TPayChannel;
  onChannelChange: (channel: TPayChannel) => void;
  cardId: string | null;
  onCardChange: (cardId: string) => void;
  /** the server answered 10803 or 10802: no card payments here now */
  isCardUnavailable: boolean;
  isLocked: boolean;
};

export function PayMethod(props: TPayMethodProps) {
  const { t } = useTranslation('dedicated-node');
  const cardSelectId = useId();
  const { payments } = props;
  if (payments.status !== 'on') return null;
  const usable = payments.cards.filter((c) => !c.isExpired);
  const isByCard = props.channel === 'card';

  return (
    <Flex vertical gap={8}>
      <fieldset className="dn-fieldset">
        <legend>{t('pay.method')}</legend>
        <Radio.Group
          value={props.channel}
          disabled={props.isLocked}
          onChange={(e) => props.onChannelChange(e.target.value as TPayChannel)}
          options={[
            { value: 'wallet', label: t('pay.wallet') },
            {
              value: 'card',
              label: props.isCardUnavailable ? t('pay.cardOff') : t('pay.card'),
              disabled: props.isCardUnavailable,
            },
          ]}
        />
      </fieldset>
      {isByCard && usable.length > 0 ? (
        <Flex vertical gap={4}>
          <label htmlFor={cardSelectId}>{t('pay.cardToCharge')}</label>
          <Select<string>
            id={cardSelectId}
            value={props.cardId ?? undefined}
            disabled={props.isLocked}
            onChange={props.onCardChange}
            style={{ maxWidth: 320 }}
            options={payments.cards.map((card) => {
              const name = t('pay.cardName', { brand: brandName(card.brand), last4: card.last4 });
              const label = card.isExpired
                ? t('pay.cardExpired', { card: name })
                : card.isDefault
                  ? t('pay.cardDefault', { card: name })
                  : name;
              return { value: card.id, label, title: label, disabled: card.isExpired };
            })}
          />
        </Flex>
      ) : null}
      {isByCard && usable.length === 0 ? (
        <Alert
          type="info"
          showIcon
          message={t('pay.noCard')}
          action={
            <LinkButton to="/rpc/billings" size="small">
              {t('pay.addCard')}
            </LinkButton>
          }
        />
      ) : null}
    </Flex>
  );
}
