/** SPEC §8/§9: every socket notice pops up at the top left for 2000 ms; file_download stays until closed. */
import type { TLanguage, TNotice } from '@rpc/contract';
import { NOTICE_TOAST_MS } from '@rpc/contract';
import { notification } from 'antd';
import { renderNotice } from '../lib/notice-text';
import { NoticeIcon } from './notice-icon';

export function showNoticePopup(notice: TNotice, lang: TLanguage): void {
  const { title, content, icon, severity } = renderNotice(notice, lang);
  notification.open({
    key: `notice-${notice.id}`,
    placement: 'topLeft',
    // antd counts seconds; 0 keeps it open until the user closes it.
    duration: notice.type === 'file_download' ? 0 : NOTICE_TOAST_MS / 1000,
    message: title,
    description: content,
    icon: <NoticeIcon icon={icon} severity={severity} />,
    role: severity === 'error' ? 'alert' : 'status',
  });
}
