/**
 * Header bell: the unread notice count (SPEC §4) on a button that opens a preview of the latest notices,
 * each leading to what it is about, and a link to the whole notifications list.
 */
import { BellOutlined } from '@ant-design/icons';
import type { TNotice } from '@rpc/contract';
import { Badge, Button, Dropdown, theme, Typography } from 'antd';
import type { KeyboardEvent } from 'react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../lib/format-date-time';
import { LocalizedLink, useRouteLang } from '../lib/locale-path';
import { renderNotice } from '../lib/notice-text';
import { noticeTarget } from '../lib/notice-target';
import { readType, useNotices } from '../lib/notices';
import { isCancelledError } from '../lib/rpc-client';
import { focusWhenMounted } from './focus-when-mounted';
import { NoticeIcon } from './notice-icon';
import { VISUALLY_HIDDEN_STYLE, VisuallyHidden } from './visually-hidden';

export const NOTIFICATIONS_PATH = '/rpc/notifications';
/** How many notices the preview shows. */
export const BELL_PREVIEW_SIZE = 5;

/** Opening a notice reads its type (SPEC §4); a failure has shown its popup and leaves it unread. */
function markRead(notice: TNotice): void {
  if (notice.read) return;
  readType(notice.type).catch((error: unknown) => {
    if (!isCancelledError(error)) console.warn('Marking a notice read failed', error);
  });
}

function BellPanel({ titleId, onClose }: { titleId: string; onClose: () => void }) {
  const { t } = useTranslation(['layout', 'notices']);
  const lang = useRouteLang();
  const { token } = theme.useToken();
  const list = useNotices((s) => s.list);
  const count = useNotices((s) => s.unreadCount);
  const latest = list.slice(0, BELL_PREVIEW_SIZE);
  return (
    <>
      <div
        style={{
          display: 'flex',
          alignItems: 'baseline',
          justifyContent: 'space-between',
          gap: 8,
          padding: '12px 16px',
          borderBottom: `1px solid ${token.colorSplit}`,
        }}
      >
        <Typography.Text strong id={titleId}>
          {t('notices:bell.label')}
        </Typography.Text>
        <Typography.Text style={{ fontSize: 12, color: token.colorTextSecondary }}>
          {count > 0 ? t('notices:bell.unread', { count }) : t('notices:bell.none')}
        </Typography.Text>
      </div>
      {latest.length > 0 ? (
        <ul
          aria-label={t('layout:bell.latest')}
          style={{ listStyle: 'none', margin: 0, padding: 0 }}
        >
          {latest.map((notice) => {
            const { title, icon, severity } = renderNotice(notice, lang);
            const target = noticeTarget(notice);
            return (
              <li
                key={notice.id}
                style={{
                  display: 'flex',
                  gap: 12,
                  padding: '10px 16px',
                  borderBottom: `1px solid ${token.colorSplit}`,
                }}
              >
                <NoticeIcon icon={icon} severity={severity} />
                <div style={{ minWidth: 0 }}>
                  <Typography.Text strong={!notice.read} style={{ display: 'block' }}>
                    {target ? (
                      <LocalizedLink
                        to={target}
                        style={{ color: 'inherit' }}
                        className="bell-notice-link"
                        onClick={() => {
                          markRead(notice);
                          onClose();
                        }}
                      >
                        {title}
                      </LocalizedLink>
                    ) : (
                      title
                    )}
                    {!notice.read && (
                      <VisuallyHidden> ({t('layout:bell.unreadMark')})</VisuallyHidden>
                    )}
                  </Typography.Text>
                  <Typography.Text style={{ fontSize: 12, color: token.colorTextSecondary }}>
                    <time dateTime={new Date(notice.createdAt).toISOString()}>
                      {formatDateTime(notice.createdAt)}
                    </time>
                  </Typography.Text>
                </div>
              </li>
            );
          })}
        </ul>
      ) : (
        <Typography.Paragraph
          style={{ margin: 0, padding: '16px', color: token.colorTextSecondary }}
        >
          {t('layout:bell.empty')}
        </Typography.Paragraph>
      )}
      <div style={{ padding: '10px 16px', textAlign: 'center' }}>
        <LocalizedLink to={NOTIFICATIONS_PATH} onClick={onClose} className="bell-see-all">
          {t('layout:bell.seeAll')}
        </LocalizedLink>
      </div>
    </>
  );
}

export function NotificationBell() {
  const { t } = useTranslation('notices');
  const { token } = theme.useToken();
  const count = useNotices((s) => s.unreadCount);
  const [isOpen, setIsOpen] = useState(false);
  const countId = useId();
  const panelId = useId();
  const titleId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const countText = count > 0 ? t('bell.unread', { count }) : t('bell.none');

  // Focus goes into the preview when it opens: the first notice's link, or "See all".
  useEffect(() => {
    if (!isOpen) return;
    return focusWhenMounted(() =>
      document.getElementById(panelId)?.querySelector<HTMLElement>('a[href]'),
    );
  }, [isOpen, panelId]);

  const close = () => setIsOpen(false);
  const onPanelKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    close();
    buttonRef.current?.focus();
  };

  return (
    <>
      <Badge count={count} overflowCount={99} size="small" offset={[-6, 6]}>
        <Dropdown
          trigger={['click']}
          open={isOpen}
          onOpenChange={setIsOpen}
          placement="bottomRight"
          // Slid sideways into view where the bell is too near the left edge for the panel (phones).
          align={{ overflow: { adjustY: true, shiftX: true } }}
          destroyOnHidden
          popupRender={() => (
            <div
              id={panelId}
              role="dialog"
              aria-labelledby={titleId}
              onKeyDown={onPanelKeyDown}
              style={{
                width: 'min(360px, calc(100vw - 24px))',
                background: token.colorBgElevated,
                borderRadius: token.borderRadiusLG,
                boxShadow: token.boxShadowSecondary,
              }}
            >
              <BellPanel titleId={titleId} onClose={close} />
            </div>
          )}
        >
          <Button
            ref={buttonRef}
            type="text"
            icon={<BellOutlined aria-hidden />}
            aria-label={t('bell.label')}
            aria-describedby={countId}
            aria-haspopup="dialog"
            aria-expanded={isOpen}
          />
        </Dropdown>
      </Badge>
      {/* Read with the button, and announced when the count changes. */}
      <span id={countId} aria-live="polite" style={VISUALLY_HIDDEN_STYLE}>
        {countText}
      </span>
    </>
  );
}
