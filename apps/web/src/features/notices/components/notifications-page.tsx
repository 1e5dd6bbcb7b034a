/**
 * /rpc/notifications: the notice list with read filter, type filter (by topic), load more and mark-read actions.
 * A notice's title opens what it is about and marks it read (SPEC §4: its whole type).
 */
import type { TNotice, TNoticeType } from '@rpc/contract';
import { NOTICE_TYPES } from '@rpc/contract';
import {
  Button,
  Card,
  ConfigProvider,
  Empty,
  Radio,
  Select,
  Skeleton,
  Space,
  Tag,
  Typography,
  message,
} from 'antd';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NoticeIcon } from '../../../components/notice-icon';
import { formatDateTime } from '../../../lib/format-date-time';
import { LocalizedLink, useRouteLang } from '../../../lib/locale-path';
import { noticeTarget } from '../../../lib/notice-target';
import { renderNotice } from '../../../lib/notice-text';
import type { TNoticeQuery } from '../../../lib/notices';
import { loadMoreNotices, loadNotices, readAll, readType, useNotices } from '../../../lib/notices';
import { isCancelledError } from '../../../lib/rpc-client';
import { topicsOf } from '../utils/notice-topics';
import { EmailPreferencesSection } from './email-preferences-section';

export const NOTICES_PAGE_SIZE = 20;

type TReadFilter = 'all' | 'unread' | 'read';

function toQuery(read: TReadFilter, type: TNoticeType | undefined): TNoticeQuery {
  return {
    ...(read === 'all' ? {} : { unread: read === 'unread' }),
    ...(type ? { type } : {}),
  };
}

/** Marks a notice's type read; a failure has shown its popup and leaves the notice unread. */
function markRead(notice: TNotice): void {
  if (notice.read) return;
  readType(notice.type).catch((error: unknown) => {
    if (!isCancelledError(error)) console.warn('Marking a notice read failed', error);
  });
}

function NoticeItem({ notice }: { notice: TNotice }) {
  const { t } = useTranslation('notices');
  const lang = useRouteLang();
  const { title, content, icon, severity } = renderNotice(notice, lang);
  const target = noticeTarget(notice);
  const linkRef = useRef<HTMLAnchorElement>(null);
  return (
    <li
      style={{
        display: 'flex',
        gap: 12,
        padding: '12px 0',
        borderBottom: '1px solid rgba(5, 5, 5, 0.06)',
        cursor: target ? 'pointer' : undefined,
      }}
      // A click anywhere on the notice does what its title link does (the link is the accessible control).
      onClick={(e) => {
        if (target && !(e.target as HTMLElement).closest('a, button')) linkRef.current?.click();
      }}
    >
      <NoticeIcon icon={icon} severity={severity} />
      <div style={{ flex: 1, minWidth: 0 }}>
        <Space size={8} wrap>
          {target ? (
            <LocalizedLink ref={linkRef} to={target} onClick={() => markRead(notice)}>
              <Typography.Text strong={!notice.read} style={{ color: 'inherit' }}>
                {title}
              </Typography.Text>
            </LocalizedLink>
          ) : (
            <Typography.Text strong={!notice.read}>{title}</Typography.Text>
          )}
          {!notice.read && <Tag color="blue">{t('page.unreadTag')}</Tag>}
        </Space>
        <Typography.Paragraph style={{ margin: '4px 0' }}>{content}</Typography.Paragraph>
        <Space size={12} wrap>
          <Typography.Text type="secondary">
            <time dateTime={new Date(notice.createdAt).toISOString()}>
              {formatDateTime(notice.createdAt)}
            </time>
          </Typography.Text>
          {!target && !notice.read ? (
            <Button
              size="small"
              type="link"
              style={{ padding: 0 }}
              aria-label={t('page.markOneRead', { title })}
              onClick={() => markRead(notice)}
            >
              {t('page.markRead')}
            </Button>
          ) : null}
        </Space>
      </div>
    </li>
  );
}

export function NotificationsPage() {
  const { t } = useTranslation('notices');
  const [read, setRead] = useState<TReadFilter>('all');
  const [type, setType] = useState<TNoticeType | undefined>(undefined);
  const list = useNotices((s) => s.list);
  const cursor = useNotices((s) => s.cursor);
  const isLoading = useNotices((s) => s.isLoading);
  const unreadCount = useNotices((s) => s.unreadCount);
  const unreadByType = useNotices((s) => s.unreadByType);
  const [isMarking, setIsMarking] = useState(false);
  const readFilterId = useId();
  const typeFilterId = useId();

  useEffect(() => {
    loadNotices(toQuery(read, type), NOTICES_PAGE_SIZE).catch(() => undefined);
  }, [read, type]);

  async function run(action: () => Promise<void>, done: string) {
    setIsMarking(true);
    try {
      await action();
      void message.success(done);
    } catch (error) {
      if (!isCancelledError(error)) console.warn('Marking notices read failed', error);
    } finally {
      setIsMarking(false);
    }
  }

  const typeLabel = type ? t(`labels.${type}`) : '';
  const isFirstLoad = isLoading && list.length === 0;

  return (
    <ConfigProvider button={{ autoInsertSpace: false }}>
      <div style={{ maxWidth: 880 }}>
        <Typography.Title level={1} style={{ fontSize: 24, marginTop: 0 }}>
          {t('page.title')}
        </Typography.Title>
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          <Card>
            <Space wrap size="middle" style={{ width: '100%', justifyContent: 'space-between' }}>
              <Space wrap size="middle">
                <Space size={8}>
                  <span id={readFilterId}>{t('page.filter.label')}</span>
                  <Radio.Group
                    aria-labelledby={readFilterId}
                    optionType="button"
                    value={read}
                    onChange={(e) => setRead(e.target.value as TReadFilter)}
                    options={(['all', 'unread', 'read'] as const).map((value) => ({
                      value,
                      label: t(`page.filter.${value}`),
                    }))}
                  />
                </Space>
                <Space size={8}>
                  <label htmlFor={typeFilterId}>{t('page.filter.type')}</label>
                  <Select<TNoticeType | 'all'>
                    id={typeFilterId}
                    style={{ minWidth: 220 }}
                    // Real DOM options under their topic headings, not the virtual list's window.
                    virtual={false}
                    value={type ?? 'all'}
                    onChange={(value) => setType(value === 'all' ? undefined : value)}
                    options={[
                      { value: 'all', label: t('page.filter.allTypes') },
                      ...topicsOf(NOTICE_TYPES).map((topic) => ({
                        label: t(`topics.${topic.id}.title`),
                        title: t(`topics.${topic.id}.title`),
                        options: topic.types.map((value) => ({
                          value,
                          label: t(`labels.${value}`),
                        })),
                      })),
                    ]}
                  />
                </Space>
              </Space>
              <Space wrap>
                {type && (
                  <Button
                    disabled={!unreadByType[type] || isMarking}
                    onClick={() =>
                      void run(() => readType(type), t('page.markedTypeRead', { type: typeLabel }))
                    }
                  >
                    {t('page.markTypeRead', { type: typeLabel })}
                  </Button>
                )}
                <Button
                  type="primary"
                  disabled={unreadCount === 0 || isMarking}
                  onClick={() => void run(readAll, t('page.markedAllRead'))}
                >
                  {t('page.markAllRead')}
                </Button>
              </Space>
            </Space>
            <Typography.Paragraph type="secondary" style={{ margin: '12px 0 0' }}>
              {t('page.unreadSummary', { count: unreadCount })}
            </Typography.Paragraph>
          </Card>

          <Card>
            {isFirstLoad ? (
              <div aria-busy="true">
                <span role="status" style={{ position: 'absolute', left: -9999 }}>
                  {t('page.loading')}
                </span>
                <Skeleton active />
              </div>
            ) : list.length === 0 ? (
              <Empty description={read === 'unread' ? t('page.emptyUnread') : t('page.empty')} />
            ) : (
              <>
                <ul
                  aria-label={t('page.listLabel')}
                  aria-busy={isLoading}
                  style={{ listStyle: 'none', margin: 0, padding: 0 }}
                >
                  {list.map((notice) => (
                    <NoticeItem key={notice.id} notice={notice} />
                  ))}
                </ul>
                {cursor !== null && (
                  <div style={{ textAlign: 'center', marginTop: 16 }}>
                    <Button
                      loading={isLoading}
                      onClick={() => void loadMoreNotices(NOTICES_PAGE_SIZE).catch(() => undefined)}
                    >
                      {t('page.loadMore')}
                    </Button>
                  </div>
                )}
              </>
            )}
          </Card>

          <EmailPreferencesSection />
        </Space>
      </div>
    </ConfigProvider>
  );
}
