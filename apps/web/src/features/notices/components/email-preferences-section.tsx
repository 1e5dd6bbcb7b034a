/** Which notice types are also sent by e-mail (hub_getUserEmailConfig / hub_setUserEmailConfig). */
import type { TNoticeType } from '@rpc/contract';
import { Button, Card, Checkbox, Skeleton, Typography, message } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEmailConfig } from '../api/get-email-config';
import { useSetEmailConfig } from '../api/set-email-config';

export function EmailPreferencesSection() {
  const { t } = useTranslation('notices');
  const config = useEmailConfig();
  const mutation = useSetEmailConfig();
  // The user's unsaved choice; null while it equals what the server has.
  const [draft, setDraft] = useState<TNoticeType[] | null>(null);
  const chosen = draft ?? config.data?.types ?? [];

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
            <Checkbox.Group
              value={chosen}
              onChange={(values) => setDraft(values as TNoticeType[])}
              style={{
                display: 'grid',
                gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
                gap: 8,
              }}
              options={config.data.available.map((type) => ({
                value: type,
                label: t(`labels.${type}`),
              }))}
            />
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
