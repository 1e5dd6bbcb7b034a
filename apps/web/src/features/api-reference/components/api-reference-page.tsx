/**
 * /rpc/api-reference: the console API's methods as its own OpenRPC document (rpc.discover) describes them, grouped
 * by domain, searchable, each with an anchor (#hub_generateApiKey) so links open at the method.
 */
import { Alert, Button, Empty, Flex, Input, Skeleton, Typography } from 'antd';
import { useDeferredValue, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useLocale } from '../../../lib/i18n';
import { useApiReference } from '../api/get-api-reference';
import type { TMethodGroup } from '../utils/openrpc-document';
import { groupAnchor, groupMethods, methodAnchor, searchMethods } from '../utils/openrpc-document';
import { MethodSection } from './method-section';

/** After the document arrives, a deep link's method is scrolled to and focused (the shell gives up sooner). */
function useScrollToHash(isReady: boolean) {
  const { hash } = useLocation();
  useEffect(() => {
    if (!isReady || !hash || hash === '#') return;
    let id = hash.slice(1);
    try {
      id = decodeURIComponent(id);
    } catch {
      // keep the raw id
    }
    const element = document.getElementById(id);
    if (!element) return;
    element.scrollIntoView?.();
    if (element.tabIndex === -1) element.focus({ preventScroll: true });
  }, [isReady, hash]);
}

/** Methods drawn in full per frame: the whole reference at once held the page for seconds on a slow machine. */
const DETAIL_CHUNK = 24;

/**
 * How many methods are drawn in full so far: the first chunk at once, the rest a chunk per task, so the page
 * answers input while it fills in. Every method's heading and summary are there from the start.
 */
function useDetailedCount(total: number): number {
  const [count, setCount] = useState(DETAIL_CHUNK);
  useEffect(() => {
    if (count >= total) return;
    const timer = setTimeout(() => setCount((c) => c + DETAIL_CHUNK), 0);
    return () => clearTimeout(timer);
  }, [count, total]);
  return Math.min(count, total);
}

function GroupSection({
  group,
  label,
  firstIndex,
  detailedCount,
}: {
  group: TMethodGroup;
  label: string;
  /** the index of the group's first method in the whole list */
  firstIndex: number;
  detailedCount: number;
}) {
  const id = groupAnchor(group.tag);
  return (
    <section aria-labelledby={id}>
      <Typography.Title level={2} id={id} style={{ fontSize: 20, margin: '24px 0 0' }}>
        {label}
      </Typography.Title>
      {group.methods.map((m, i) => (
        <MethodSection key={m.name} method={m} isDetailed={firstIndex + i < detailedCount} />
      ))}
    </section>
  );
}

export function ApiReferencePage() {
  const { t } = useTranslation('api-reference');
  const { lang } = useLocale();
  const reference = useApiReference();
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query);
  const searchId = useId();
  const methods = useMemo(
    () => searchMethods(reference.data?.methods ?? [], deferredQuery),
    [reference.data, deferredQuery],
  );
  const groups = useMemo(() => groupMethods(methods), [methods]);
  const firstIndexes = useMemo(
    () => groups.map((_, i) => groups.slice(0, i).reduce((n, g) => n + g.methods.length, 0)),
    [groups],
  );
  const detailedCount = useDetailedCount(methods.length);
  const tagLabel = (tag: string) =>
    tag ? t(`tags.${tag}`, { defaultValue: tag }) : t('tags.other');
  // A deep link waits for every method above it, or it would slide away as they fill in.
  useScrollToHash(!!reference.data && detailedCount >= methods.length);

  return (
    <section aria-labelledby="page-title">
      <Typography.Title level={1} id="page-title" style={{ fontSize: 24 }}>
        {t('title')}
      </Typography.Title>
      <Typography.Paragraph>{t('intro')}</Typography.Paragraph>
      {lang === 'en' ? null : (
        <Alert type="info" showIcon message={t('englishNote')} style={{ marginBottom: 16 }} />
      )}
      {reference.isLoading ? (
        <div role="status" aria-label={t('loading')}>
          <Skeleton active paragraph={{ rows: 8 }} />
        </div>
      ) : reference.isError || !reference.data ? (
        <Alert
          type="error"
          showIcon
          message={t('loadFailed')}
          action={<Button onClick={() => void reference.refetch()}>{t('retry')}</Button>}
        />
      ) : (
        <Flex vertical gap={16}>
          <div role="search">
            <label htmlFor={searchId} style={{ display: 'block', marginBottom: 4 }}>
              {t('search.label')}
            </label>
            <Input
              id={searchId}
              type="search"
              allowClear
              value={query}
              placeholder={t('search.placeholder')}
              onChange={(e) => setQuery(e.target.value)}
              style={{ maxWidth: 420 }}
            />
            <div role="status" style={{ marginTop: 4 }}>
              {t('search.count', { count: methods.length })}
            </div>
          </div>
          {groups.length === 0 ? (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={t('search.empty', { query: deferredQuery.trim() })}
            >
              <Button onClick={() => setQuery('')}>{t('search.clear')}</Button>
            </Empty>
          ) : (
            <Flex gap={32} align="flex-start" wrap>
              <nav
                aria-label={t('contents.label')}
                style={{ flex: '0 0 220px', position: 'sticky', top: 16 }}
              >
                <Typography.Title level={2} style={{ fontSize: 16, marginTop: 0 }}>
                  {t('contents.title')}
                </Typography.Title>
                <ul style={{ margin: 0, paddingLeft: 16 }}>
                  {groups.map((g) => (
                    <li key={g.tag}>
                      <a href={`#${groupAnchor(g.tag)}`}>
                        {t('contents.group', { name: tagLabel(g.tag), count: g.methods.length })}
                      </a>
                      {/* a short list (a search) names its methods too */}
                      {methods.length <= 12 ? (
                        <ul style={{ paddingLeft: 16 }}>
                          {g.methods.map((m) => (
                            <li key={m.name}>
                              <a href={`#${methodAnchor(m.name)}`}>{m.name}</a>
                            </li>
                          ))}
                        </ul>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </nav>
              <div style={{ flex: '1 1 480px', minWidth: 0 }}>
                {groups.map((g, i) => (
                  <GroupSection
                    key={g.tag}
                    group={g}
                    label={tagLabel(g.tag)}
                    firstIndex={firstIndexes[i]!}
                    detailedCount={detailedCount}
                  />
                ))}
              </div>
            </Flex>
          )}
        </Flex>
      )}
    </section>
  );
}
