/**
 * The purchase wizard of /rpc/dedicated-node/new: chain → node type → region → period → review and pay. One step
 * at a time, each a group of radio buttons in a form (arrow keys choose, Tab reaches Next, which submits); the step's
 * heading takes focus when the step changes, so keyboard and screen-reader users land on what is asked next.
 */
import type { TDnNodeType, TDnSku } from '@rpc/contract';
import { Button, Flex, Radio, Steps } from 'antd';
import type { ReactNode } from 'react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDnFormat } from '../hooks/use-dn-format';
import { cheapestMonthlyCents, quoteOf } from '../utils/pricing';
import type { TDnTerms } from './review-step';
import { ReviewStep } from './review-step';

export const WIZARD_STEPS = ['chain', 'nodeType', 'region', 'period', 'review'] as const;
type TStep = (typeof WIZARD_STEPS)[number];

type TChoice = {
  chain: string | null;
  nodeType: TDnNodeType | null;
  region: string | null;
  months: number | null;
};

/** Keeps the later choices that still fit a newly chosen chain; a single option is chosen for the buyer. */
export function choiceForChain(sku: TDnSku, chainId: string, previous: TChoice): TChoice {
  const chain = sku.chains.find((c) => c.id === chainId);
  const types = chain?.nodeTypes.map((n) => n.type) ?? [];
  const regions = chain?.regions ?? [];
  const keep = <T,>(value: T | null, options: readonly T[]): T | null =>
    value !== null && options.includes(value) ? value : options.length === 1 ? options[0]! : null;
  return {
    chain: chainId,
    nodeType: keep(previous.nodeType, types),
    region: keep(previous.region, regions),
    months: previous.months,
  };
}

/** An option in words: "Ethereum · from $299.00 / month" (one text, so its accessible name keeps the spaces). */
function choiceLabel(name: string, detail?: string | null): string {
  return detail ? `${name} · ${detail}` : name;
}

export function NodeWizard({
  sku,
  onRefreshSku,
}: {
  sku: TDnSku;
  /** the price changed (10703): read the catalogue again */
  onRefreshSku: () => void;
}) {
  const { t } = useTranslation('dedicated-node');
  const format = useDnFormat();
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const hasMoved = useRef(false);
  const [stepIndex, setStepIndex] = useState(0);
  const [choice, setChoice] = useState<TChoice>({
    chain: null,
    nodeType: null,
    region: null,
    months: sku.periods[0]?.months ?? null,
  });
  const step: TStep = WIZARD_STEPS[stepIndex]!;
  const chain = sku.chains.find((c) => c.id === choice.chain);

  useEffect(() => {
    if (hasMoved.current) headingRef.current?.focus();
  }, [stepIndex]);

  const go = (delta: number) => {
    hasMoved.current = true;
    setStepIndex((i) => Math.min(Math.max(i + delta, 0), WIZARD_STEPS.length - 1));
  };

  const isChosen =
    step === 'review' ||
    (step === 'chain' && !!chain?.isAvailable) ||
    (step === 'nodeType' && choice.nodeType !== null) ||
    (step === 'region' && choice.region !== null) ||
    (step === 'period' && choice.months !== null);

  const renderChoices = (): ReactNode => {
    switch (step) {
      case 'chain':
        return (
          <Radio.Group
            className="dn-choices"
            value={choice.chain}
            onChange={(e) => setChoice((c) => choiceForChain(sku, e.target.value as string, c))}
            options={sku.chains.map((c) => {
              const from = cheapestMonthlyCents(sku, c.id);
              return {
                value: c.id,
                disabled: !c.isAvailable,
                label: choiceLabel(
                  format.text(c.name),
                  c.isAvailable
                    ? from !== null
                      ? t('wizard.fromPrice', { amount: format.money(from) })
                      : null
                    : t('wizard.chainUnavailable'),
                ),
              };
            })}
          />
        );
      case 'nodeType':
        return (
          <Radio.Group
            className="dn-choices"
            value={choice.nodeType}
            onChange={(e) => setChoice((c) => ({ ...c, nodeType: e.target.value as TDnNodeType }))}
            options={(chain?.nodeTypes ?? []).map((n) => ({
              value: n.type,
              label: choiceLabel(
                t(`nodeType.${n.type}`),
                `${t('price.perMonth', { amount: format.money(n.monthlyCents) })} · ${t(`nodeTypeHelp.${n.type}`)}`,
              ),
            }))}
          />
        );
      case 'region':
        return (
          <Radio.Group
            className="dn-choices"
            value={choice.region}
            onChange={(e) => setChoice((c) => ({ ...c, region: e.target.value as string }))}
            options={(chain?.regions ?? []).map((id) => {
              const region = sku.regions.find((r) => r.id === id);
              return {
                value: id,
                label: choiceLabel(region ? format.text(region.name) : id),
              };
            })}
          />
        );
      case 'period': {
        const monthly =
          chain?.nodeTypes.find((n) => n.type === choice.nodeType)?.monthlyCents ?? null;
        return (
          <Radio.Group
            className="dn-choices"
            value={choice.months}
            onChange={(e) => setChoice((c) => ({ ...c, months: e.target.value as number }))}
            options={sku.periods.map((p) => {
              const quote = monthly === null ? null : quoteOf(monthly, p);
              return {
                value: p.months,
                label: choiceLabel(
                  t('months', { count: p.months }),
                  quote === null
                    ? null
                    : p.discountPercent > 0
                      ? `${format.money(quote.priceCents)} · ${t('wizard.save', {
                          percent: p.discountPercent,
                          amount: format.money(quote.discountCents),
                        })}`
                      : format.money(quote.priceCents),
                ),
              };
            })}
          />
        );
      }
      default:
        return null;
    }
  };

  const terms: TDnTerms | null =
    choice.chain && choice.nodeType && choice.region && choice.months !== null
      ? {
          chain: choice.chain,
          nodeType: choice.nodeType,
          region: choice.region,
          months: choice.months,
        }
      : null;
  const stepName = t(`wizard.steps.${step}`);

  return (
    <Flex vertical gap={16}>
      {/* The progress for the eye; the step's heading says the same in words. */}
      <div aria-hidden>
        <Steps
          size="small"
          current={stepIndex}
          items={WIZARD_STEPS.map((s) => ({ title: t(`wizard.steps.${s}`) }))}
        />
      </div>
      <section aria-labelledby={headingId}>
        <h2 id={headingId} ref={headingRef} tabIndex={-1} className="dn-step-heading">
          {t('wizard.stepHeading', {
            n: stepIndex + 1,
            total: WIZARD_STEPS.length,
            name: stepName,
          })}
        </h2>
        {step === 'review' && terms ? (
          <ReviewStep sku={sku} terms={terms} onBack={() => go(-1)} onRefreshSku={onRefreshSku} />
        ) : (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (isChosen) go(1);
            }}
          >
            <fieldset className="dn-fieldset">
              <legend>{t(`wizard.question.${step}`)}</legend>
              {renderChoices()}
            </fieldset>
            <Flex gap={8} style={{ marginTop: 16 }}>
              {stepIndex > 0 ? <Button onClick={() => go(-1)}>{t('wizard.back')}</Button> : null}
              <Button type="primary" htmlType="submit" disabled={!isChosen}>
                {t('wizard.next')}
              </Button>
            </Flex>
          </form>
        )}
      </section>
    </Flex>
  );
}
