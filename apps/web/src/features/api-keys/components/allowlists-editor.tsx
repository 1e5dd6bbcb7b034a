/** A key's allowlists (origins, IPs, contracts, methods): entries checked with the contract's rules. */
import type { TAllowlists, TApiKey } from '@rpc/contract';
import { ALLOWLIST_MAX_ENTRIES } from '@rpc/contract';
import { Alert, Button, Flex, Input, Space, Tag, Typography, message } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUpdateApiKey } from '../api/update-api-key';
import type { TAllowlistKind } from '../utils/allowlists';
import { ALLOWLIST_KINDS, checkAllowlistEntry, splitEntries } from '../utils/allowlists';

function AllowlistField({
  kind,
  entries,
  onChange,
}: {
  kind: TAllowlistKind;
  entries: readonly string[];
  onChange: (next: string[]) => void;
}) {
  const { t } = useTranslation('api-keys');
  const inputId = useId();
  const errorId = useId();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);

  const add = () => {
    const candidates = splitEntries(draft);
    if (candidates.length === 0) return;
    const next = [...entries];
    const rejected: string[] = [];
    let reason: string | null = null;
    for (const raw of candidates) {
      const check = checkAllowlistEntry(kind, raw, next);
      if (check.ok) next.push(check.value);
      else {
        rejected.push(raw);
        reason ??= check.reason;
      }
    }
    onChange(next);
    setDraft(rejected.join(' '));
    setError(
      reason === null
        ? null
        : t(`allowlists.errors.${reason}`, {
            entries: rejected.join(', '),
            max: ALLOWLIST_MAX_ENTRIES,
          }),
    );
  };

  return (
    <div>
      <Typography.Title level={5} style={{ marginBottom: 0 }}>
        <label htmlFor={inputId}>{t(`allowlists.${kind}.title`)}</label>
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t(`allowlists.${kind}.hint`)}
      </Typography.Paragraph>
      <Flex wrap gap={4} style={{ marginBottom: 8 }}>
        {entries.length === 0 ? (
          <Typography.Text type="secondary">{t('allowlists.allowAll')}</Typography.Text>
        ) : (
          entries.map((entry) => (
            <Tag
              key={entry}
              closable
              closeIcon={<span aria-label={t('allowlists.remove', { entry })}>×</span>}
              onClose={(e) => {
                e.preventDefault();
                onChange(entries.filter((x) => x !== entry));
              }}
            >
              {entry}
            </Tag>
          ))
        )}
      </Flex>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          id={inputId}
          value={draft}
          placeholder={t(`allowlists.${kind}.placeholder`)}
          status={error ? 'error' : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => {
            setDraft(e.target.value);
            setError(null);
          }}
          onPressEnter={add}
        />
        <Button onClick={add}>{t('allowlists.add')}</Button>
      </Space.Compact>
      {error ? (
        <Typography.Text type="danger" id={errorId} role="alert">
          {error}
        </Typography.Text>
      ) : null}
    </div>
  );
}

export function AllowlistsEditor({ apiKey }: { apiKey: TApiKey }) {
  const { t } = useTranslation('api-keys');
  const [lists, setLists] = useState<TAllowlists>(apiKey.allowlists);
  const update = useUpdateApiKey();
  const isDirty = JSON.stringify(lists) !== JSON.stringify(apiKey.allowlists);

  const save = async () => {
    try {
      const saved = await update.mutateAsync({ keyId: apiKey.keyId, allowlists: lists });
      setLists(saved.allowlists);
      void message.success(t('allowlists.saved'));
    } catch {
      // the request client has shown why; the edits stay for another try
    }
  };

  return (
    <Flex vertical gap={16}>
      <Alert type="info" showIcon message={t('allowlists.emptyMeansAll')} />
      {ALLOWLIST_KINDS.map((kind) => (
        <AllowlistField
          key={kind}
          kind={kind}
          entries={lists[kind]}
          onChange={(next) => setLists((prev) => ({ ...prev, [kind]: next }))}
        />
      ))}
      <Flex gap={8} justify="flex-end">
        <Button disabled={!isDirty} onClick={() => setLists(apiKey.allowlists)}>
          {t('allowlists.reset')}
        </Button>
        <Button
          type="primary"
          disabled={!isDirty}
          loading={update.isPending}
          onClick={() => void save()}
        >
          {t('allowlists.save')}
        </Button>
      </Flex>
    </Flex>
  );
}
