/** The notice mail: the shared wording in the reader's language, HTML-safe whatever the notice carries. */
import { NOTICE_CUTOFF_MS, type TNoticeTextSource } from '@rpc/contract';
import { describe, expect, it } from 'vitest';
import { formatMailTime, renderNoticeMail } from './notice';

function mail(language: 'en' | 'zh', over: Partial<TNoticeTextSource>) {
  return renderNoticeMail({
    language,
    publicUrl: 'https://console.test',
    notice: {
      type: 'deposit',
      title: 'Stored title',
      content: 'Stored content',
      createdAt: NOTICE_CUTOFF_MS + 1,
      expand: { coinAmount: 10, coin: 'ETH', usdAmount: '30000' },
      ...over,
    },
  });
}

describe('renderNoticeMail', () => {
  it('carries the per-type wording in the reader’s language, in subject, text and HTML', () => {
    const zh = mail('zh', {});
    expect(zh.subject).toBe('[通知] 充值已到账');
    expect(zh.text).toContain('您充值的 10 ETH（约 $30,000）已到账。');
    expect(zh.html).toContain('<p>您充值的 10 ETH（约 $30,000）已到账。</p>');
    expect(zh.link).toBe('https://console.test/zh/rpc/notifications');
    const en = mail('en', {});
    expect(en.subject).toBe('[Notice] Deposit received');
    expect(en.text).toContain('Your deposit of 10 ETH (about $30,000) has arrived in your wallet.');
    expect(en.link).toBe('https://console.test/rpc/notifications');
  });

  it('keeps the stored text for notices before the cutoff (SPEC §8)', () => {
    const old = mail('zh', { createdAt: NOTICE_CUTOFF_MS - 1 });
    expect(old.subject).toBe('[通知] Stored title');
    expect(old.text).toContain('Stored content');
  });

  it('escapes HTML and keeps the subject on one line, whatever the values', () => {
    const hostile = mail('en', {
      type: 'normal_fail',
      title: 'Outage\r\nBcc: someone@example.com',
      content: '<script>alert("x")</script>',
    });
    expect(hostile.subject).toBe('[Notice] Outage Bcc: someone@example.com');
    expect(hostile.html).not.toContain('<script>');
    expect(hostile.html).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;');
    const team = mail('zh', { type: 'team_disband', expand: { teamName: '<b onclick=x>' } });
    expect(team.html).toContain('团队 &#60;b onclick=x&#62; 已解散。');
  });

  it('states the zone of a time: UTC, in the reader’s language', () => {
    const at = Date.UTC(2026, 0, 31, 23, 5);
    expect(formatMailTime(at, 'en')).toBe('Jan 31, 2026, 23:05 UTC');
    expect(formatMailTime(at, 'zh')).toBe('2026年1月31日 UTC 23:05');
  });
});
