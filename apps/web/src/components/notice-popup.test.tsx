/** SPEC §8/§9: the notice popup sits top left, closes after 2000 ms, and a file_download one stays. */
import type { TNotice } from '@rpc/contract';
import { NOTICE_CUTOFF_MS } from '@rpc/contract';
import { notification } from 'antd';
import { act, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../lib/i18n';
import { showNoticePopup } from './notice-popup';

const base: TNotice = {
  id: 'n1',
  type: 'low_ru',
  title: 'server',
  content: 'server',
  createdAt: NOTICE_CUTOFF_MS + 1,
  read: false,
  teamId: null,
  expand: { amount: 7 },
};

beforeAll(async () => {
  await initI18n('en');
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('showNoticePopup', () => {
  it('opens at the top left for 2 s with the localised text', () => {
    const open = vi.spyOn(notification, 'open').mockImplementation(() => {});
    showNoticePopup(base, 'en');
    expect(open).toHaveBeenCalledWith(
      expect.objectContaining({
        placement: 'topLeft',
        duration: 2,
        message: 'RU balance is low',
        description: 'Your account has 7 RU left. Add RUs to avoid interruptions.',
      }),
    );
  });

  it('keeps a file_download popup open until closed', () => {
    const open = vi.spyOn(notification, 'open').mockImplementation(() => {});
    showNoticePopup({ ...base, type: 'file_download', expand: { name: 'x.csv' } }, 'zh');
    expect(open).toHaveBeenCalledWith(
      expect.objectContaining({ placement: 'topLeft', duration: 0, message: '导出文件已就绪' }),
    );
  });

  it('gives the close control a button role and a name in the user’s language (antd draws a bare link)', async () => {
    showNoticePopup(
      { ...base, id: 'n-close', type: 'file_download', expand: { name: 'x.csv' } },
      'zh',
    );
    const close = await screen.findByRole('button', { name: '关闭' });
    expect(close.classList.contains('ant-notification-notice-close')).toBe(true);
    await act(async () => {
      notification.destroy();
    });
  });
});
