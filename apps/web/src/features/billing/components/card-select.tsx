/** Which saved card pays: the usable (not expired) cards, the default marked. Labelled by the caller's <label>. */
import type { TCard } from '@rpc/contract';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCardText } from '../hooks/use-card-text';
import './cards.css';

/** The card a payment uses unless another is picked: the chosen one, else the default, else the first usable. */
export function pickCard(cards: readonly TCard[], chosenId: string | null): TCard | null {
  const usable = cards.filter((c) => !c.isExpired);
  return (
    usable.find((c) => c.id === chosenId) ?? usable.find((c) => c.isDefault) ?? usable[0] ?? null
  );
}

export function CardSelect({
  id,
  cards,
  value,
  disabled,
  onChange,
}: {
  id: string;
  cards: readonly TCard[];
  value: string | null;
  disabled?: boolean;
  onChange: (cardId: string) => void;
}) {
  const { t } = useTranslation('cards');
  const text = useCardText();
  return (
    <Select
      id={id}
      className="billing-card-select"
      value={value ?? undefined}
      disabled={disabled}
      onChange={onChange}
      options={cards
        .filter((c) => !c.isExpired)
        .map((c) => ({
          value: c.id,
          label: c.isDefault ? t('method.defaultCard', { card: text.label(c) }) : text.label(c),
        }))}
    />
  );
}
