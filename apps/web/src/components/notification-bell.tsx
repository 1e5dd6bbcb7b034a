/** Header bell: the unread notice count (SPEC §4) on a button that opens the notifications list. */
import { BellOutlined } from '@ant-design/icons';
import { Badge, Button } from 'antd';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocalizedNavigate } from '../lib/locale-path';
import { useNotices } from '../lib/notices';

export const NOTIFICATIONS_PATH = '/rpc/notifications';

export function NotificationBell() {
  const { t } = useTranslation('notices');
  const navigate = useLocalizedNavigate();
  const count = useNotices((s) => s.unreadCount);
  const countId = useId();
  const countText = count > 0 ? t('bell.unread', { count }) : t('bell.none');
  return (
    <>
      <Badge count={count} overflowCount={99} size="small" offset={[-6, 6]}>
        <Button
          type="text"
          icon={<BellOutlined aria-hidden />}
          aria-label={t('bell.label')}
          aria-describedby={countId}
          onClick={() => navigate(NOTIFICATIONS_PATH)}
        />
      </Badge>
      {/* Read with the button, and announced when the count changes. */}
      <span
        id={countId}
        aria-live="polite"
        style={{
          position: 'absolute',
          width: 1,
          height: 1,
          overflow: 'hidden',
          clip: 'rect(0 0 0 0)',
        }}
      >
        {countText}
      </span>
    </>
  );
}
