/**
 * Which notices are also sent by e-mail (hub_getUserEmailConfig / hub_setUserEmailConfig), chosen by topic: one
 * box per topic with a plain name and what it covers; the single notice types of a topic are one click away.
 */
import type { TNoticeType } from '@rpc/contract';
import { Button, Card, Checkbox, Flex, Skeleton, Typography, message } from 'antd';
import type { CheckboxRef } from 'antd';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEmailConfig } from '../api/get-email-config';
import { useSetEmailConfig } from '../api/set-email-config';
import type { TNoticeTopic } from '../utils/notice-topics';
import { topicState, topicsOf, withTopic } from '../utils/notice-topics';

/** The id of the card, so other pages can link to it (/rpc/notifications#email-preferences). */
export const EMAIL_PREFERENCES_ANCHOR = 'email-preferences';

function TopicChoice({
  topic,
  chosen,
  available,
  onChange,
}: {
  topic: TNoticeTopic;
  chosen: readonly TNoticeType[];
  available: readonly TNoticeType[];
  onChange: (next: TNoticeType[]) => void;
}) {
  const { t } = useTranslation('notices');
  const descriptionId = useId();
  const typesId = useId();
  const [isOpen, setOpen] = useState(false);
  const state = topicState(topic, new Set(chosen));
  const title = t(`topics.${topic.id}.title`);
  // Ant Design draws "some" but leaves the input's own state alone; assistive technology reads the input.
  const boxRef = useRef<CheckboxRef>(null);
  useEffect(() => {
    const input = boxRef.current?.input;
    if (input) input.indeterminate = state === 'some';
  }, [state]);
  return (
    <div style={{ padding: '12px 0', borderBottom: '1px solid rgba(5, 5, 5, 0.06)' }}>
      <Flex justify="space-between" align="flex-start" gap={12} wrap>
        <div style={{ flex: 1, minWidth: 240 }}>
          <Checkbox
            ref={boxRef}
            checked={state === 'all'}
            indeterminate={state === 'some'}
            aria-describedby={descriptionId}
            onChange={(e) => onChange(withTopic(chosen, topic, e.target.checked, available))}
          >
            <Typography.Text strong>{title}</Typography.Text>
          </Checkbox>
          <Typography.Paragraph
            id={descriptionId}
            type="secondary"
            style={{ margin: '2px 0 0 24px' }}
          >
            {t(`topics.${topic.id}.description`)}
          </Typography.Paragraph>
        </div>
        {topic.types.length > 1 ? (
          <Button
            type="link"
            size="small"
            aria-expanded={isOpen}
            aria-controls={typesId}
            aria-label={t('email.chooseIndividuallyIn', { topic: title })}
            onClick={() => setOpen((open) => !open)}
          >
            {isOpen ? t('email.hideIndividual') : t('email.chooseIndividually')}
          </Button>
        ) : null}
      </Flex>
      <div id={typesId} hidden={!isOpen} style={{ margin: '8px 0 0 24px' }}>
        {isOpen ? (
          <div role="group" aria-label={title}>
            <Checkbox.Group
              value={chosen.filter((type) => topic.types.includes(type))}
              onChange={(values) => {
                const others = chosen.filter((type) => !topic.types.includes(type));
                const next = new Set([...others, ...(values as TNoticeType[])]);
                onChange(available.filter((type) => next.has(type)));
              }}
              style={{
                display: 'grid',
                gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
                gap: 8,
              }}
              options={topic.types.map((type) => ({ value: type, label: t(`labels.${type}`) }))}
            />
          </div>
        ) : null}
      </div>
    </div>
  );
}

export function EmailPreferencesSection() {
  const { t } = useTranslation('notices');
  const config = useEmailConfig();
  const mutation = useSetEmailConfig();
  // The user's unsaved choice; null while it equals what the server has.
  const [draft, setDraft] = useState<TNoticeType[] | null>(null);
  const chosen = draft ?? config.data?.types ?? [];
  const available = config.data?.available ?? [];

  async function onSave() {
    try {
      await mutation.mutateAsync({ types: chosen });
      setDraft(null);
      void message.success(t('email.saved'));
    } catch {
      // the request client has shown the error
    }
  }

  return (
    <Card
      id={EMAIL_PREFERENCES_ANCHOR}
      title={
        <Typography.Title level={2} style={{ fontSize: 16, margin: 0 }}>
          {t('email.title')}
        </Typography.Title>
      }
    >
      <Typography.Paragraph type="secondary">{t('email.hint')}</Typography.Paragraph>
      {config.data ? (
        <>
          <div role="group" aria-label={t('email.label')}>
            {topicsOf(available).map((topic) => (
              <TopicChoice
                key={topic.id}
                topic={topic}
                chosen={chosen}
                available={available}
                onChange={setDraft}
              />
            ))}
          </div>
          <Button
            type="primary"
            style={{ marginTop: 16 }}
            loading={mutation.isPending}
            disabled={draft === null}
            onClick={() => void onSave()}
          >
            {t('email.save')}
          </Button>
        </>
      ) : (
        <div aria-busy="true">
          <span role="status" style={{ position: 'absolute', left: -9999 }}>
            {t('email.loading')}
          </span>
          <Skeleton active />
        </div>
      )}
    </Card>
  );
}
