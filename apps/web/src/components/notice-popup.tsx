/** SPEC §8/§9: every socket notice pops up at the top left for 2000 ms; file_download stays until closed. */
import type { TLanguage, TNotice } from '@rpc/contract';
import { NOTICE_TOAST_MS } from '@rpc/contract';
import { CloseOutlined } from '@ant-design/icons';
import { notification } from 'antd';
import { renderNotice } from '../lib/notice-text';
import { NoticeIcon } from './notice-icon';

export function showNoticePopup(notice: TNotice, lang: TLanguage): void {
  const { title, content, icon, severity } = renderNotice(notice, lang);
  // antd draws the close control as a bare <a> without href (axe: a name on an element with no role). rc-notification
  // passes `role` and aria-* of this object onto it (its types list aria-* only, hence no literal in the call).
  const closable = {
    role: 'button',
    'aria-label': lang === 'zh' ? '关闭' : 'Close',
    closeIcon: (
      <span className="ant-notification-notice-close-x">
        <CloseOutlined />
      </span>
    ),
  };
  notification.open({
    key: `notice-${notice.id}`,
    placement: 'topLeft',
    // antd counts seconds; 0 keeps it open until the user closes it.
    duration: notice.type === 'file_download' ? 0 : NOTICE_TOAST_MS / 1000,
    message: title,
    description: content,
    icon: <NoticeIcon icon={icon} severity={severity} />,
    role: severity === 'error' ? 'alert' : 'status',
    closable,
  });
}
