/** Notice methods (SPEC §4 notice read) and e-mail preferences, on each test database. */
import { ERROR_CODES, NOTICE_TYPES, type TNoticeType } from '@rpc/contract';
import { users } from '@rpc/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAILED_NOTICE_TYPES } from '../src/services/notices/email-config';
import { raiseNotice } from '../src/services/notices/raise-notice';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, type THarness } from './helpers/harness';
import { subjectOf } from './helpers/smtp';

describe.each(TEST_DATABASES)('notices on $name', ({ open }) => {
  let h: THarness;
  beforeAll(async () => {
    h = await createHarness(open);
  });
  afterAll(async () => {
    await h?.close();
  });

  async function user(language?: 'en' | 'zh') {
    const s = await h.signUp(language ? { language } : {});
    const [u] = await h.database.db.select().from(users).where(eq(users.email, s.email));
    return { ...s, userId: u!.id };
  }

  async function raise(
    userId: string,
    type: TNoticeType,
    at: number,
    title: string = type,
    expand?: Record<string, unknown>,
  ) {
    const rows = await raiseNotice({
      db: h.database.db,
      bus: h.server.deps.noticeBus,
      at,
      type,
      title,
      content: `${title} content`,
      userId,
      ...(expand ? { expand } : {}),
    });
    return rows[0]!;
  }

  it('pages newest first by cursor, filters by type and unread, and counts unread by type', async () => {
    const u = await user();
    const base = Date.now() + 10_000;
    const types: TNoticeType[] = ['deposit', 'low_ru', 'deposit', 'apikey_delete', 'deposit'];
    // Two rows share a timestamp: the id breaks the tie, so paging neither skips nor repeats.
    const raised = [];
    for (const [i, t] of types.entries())
      raised.push(await raise(u.userId, t, base + (i === 4 ? 3 : i)));
    const all: string[] = [];
    let cursor: string | number = 0;
    for (let pages = 0; pages < 10; pages++) {
      const r: Awaited<ReturnType<typeof h.call<'hub_getUserMessages'>>> = await h.call(
        'hub_getUserMessages',
        { cursor, perPage: 2 },
        { token: u.token },
      );
      expect(r.ok).toBe(true);
      all.push(...r.result!.list.map((n) => n.id));
      if (!r.result!.nextCursor) break;
      cursor = r.result!.nextCursor;
    }
    // register_gift from sign-up is the oldest.
    expect(all).toHaveLength(6);
    expect(new Set(all).size).toBe(6);
    const full = await h.call('hub_getUserMessages', { perPage: 100 }, { token: u.token });
    expect(full.result!.list.map((n) => n.id)).toEqual(all);
    const times = full.result!.list.map((n) => n.createdAt);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(full.result!.unreadCount).toBe(6);
    expect(full.result!.unreadByType).toEqual({
      deposit: 3,
      low_ru: 1,
      apikey_delete: 1,
      register_gift: 1,
    });
    const first = full.result!.list[0]!;
    expect(first).toMatchObject({ read: false, teamId: null, title: first.type, expand: {} });

    const deposits = await h.call(
      'hub_getUserMessages',
      { type: 'deposit', perPage: 9999 },
      { token: u.token },
    );
    expect(deposits.result!.list.map((n) => n.type)).toEqual(['deposit', 'deposit', 'deposit']);

    // Mark one type: every deposit read, the rest untouched.
    const marked = await h.call('hub_setUserMessageRead', { type: 'deposit' }, { token: u.token });
    expect(marked.result).toEqual({ unreadCount: 3 });
    const unread = await h.call(
      'hub_getUserMessages',
      { unread: true, perPage: 9999 },
      { token: u.token },
    );
    expect(unread.result!.list.map((n) => n.type).sort()).toEqual([
      'apikey_delete',
      'low_ru',
      'register_gift',
    ]);
    expect(unread.result!.unreadByType).toEqual({ low_ru: 1, apikey_delete: 1, register_gift: 1 });
    const readDeposits = await h.call(
      'hub_getUserMessages',
      { type: 'deposit' },
      { token: u.token },
    );
    expect(readDeposits.result!.list.every((n) => n.read)).toBe(true);

    const all0 = await h.call('hub_setUserMessageReadAll', {}, { token: u.token });
    expect(all0.result).toEqual({ unreadCount: 0 });
    const after = await h.call('hub_getUserMessages', { unread: true }, { token: u.token });
    expect(after.result).toEqual({ list: [], nextCursor: null, unreadCount: 0, unreadByType: {} });
  });

  it('another user sees and marks nothing of yours', async () => {
    const [a, b] = [await user(), await user()];
    await raise(a.userId, 'low_ru', Date.now());
    const seen = await h.call('hub_getUserMessages', { perPage: 9999 }, { token: b.token });
    expect(seen.result!.list.map((n) => n.type)).toEqual(['register_gift']);
    await h.call('hub_setUserMessageReadAll', {}, { token: b.token });
    await h.call('hub_setUserMessageRead', { type: 'low_ru' }, { token: b.token });
    const mine = await h.call('hub_getUserMessages', { unread: true }, { token: a.token });
    expect(mine.result!.unreadByType).toEqual({ low_ru: 1, register_gift: 1 });
  });

  it('refuses bad params and missing sessions', async () => {
    const u = await user();
    const bad: Array<[string, unknown]> = [
      ['hub_getUserMessages', { cursor: 'nonsense' }],
      ['hub_getUserMessages', { cursor: `${Date.now()}.not-a-uuid` }],
      ['hub_getUserMessages', { cursor: -1 }],
      ['hub_getUserMessages', { perPage: 0 }],
      ['hub_getUserMessages', { perPage: 10_000 }],
      ['hub_getUserMessages', { type: 'nope' }],
      ['hub_getUserMessages', { unread: 'yes' }],
      ['hub_setUserMessageRead', {}],
      ['hub_setUserMessageRead', { type: 'DEPOSIT' }],
      ['hub_setUserEmailConfig', { types: ['file_download'] }],
      ['hub_setUserEmailConfig', { types: 'deposit' }],
      ['hub_setUserEmailConfig', {}],
    ];
    for (const [method, params] of bad) {
      const r = await h.raw({ method, params, id: 1 }, { token: u.token });
      expect(r.error?.code, `${method} ${JSON.stringify(params)}`).toBe(ERROR_CODES.INVALID_PARAMS);
    }
    const anon = await h.call('hub_getUserMessages', {});
    expect(anon.error?.code).toBe(ERROR_CODES.SESSION_MISSING);
  });

  it('e-mail config: defaults, round trip, and chosen types mailed in the user’s language', async () => {
    const u = await user('zh');
    const got = await h.call('hub_getUserEmailConfig', {}, { token: u.token });
    expect(got.result!.types.sort()).toEqual([...DEFAULT_MAILED_NOTICE_TYPES].sort());
    expect(got.result!.available).toHaveLength(NOTICE_TYPES.length - 1);
    expect(got.result!.available).not.toContain('file_download');

    const set = await h.call(
      'hub_setUserEmailConfig',
      { types: ['low_ru', 'apikey_delete', 'low_ru'] },
      { token: u.token },
    );
    expect(set.result).toEqual({ types: ['low_ru', 'apikey_delete'] });
    const again = await h.call('hub_getUserEmailConfig', {}, { token: u.token });
    expect(again.result!.types).toEqual(['low_ru', 'apikey_delete']);

    const before = h.smtp.countTo(u.email);
    await raise(u.userId, 'deposit', Date.now(), 'Deposit received'); // not chosen: no mail
    await raise(u.userId, 'low_ru', Date.now(), 'Your RUs are running low', { amount: 1500000 });
    const mail = await h.smtp.nextMailTo(u.email);
    expect(subjectOf(mail)).toBe('[通知] RU 余额不足');
    expect(mail.text).toContain('您有一条新通知');
    expect(mail.text).toContain('您的账户仅剩 1,500,000 RU，请及时补充以免服务中断。');
    expect(mail.text).not.toContain('Your RUs are running low');
    expect(mail.text).toContain('http://console.test/zh/rpc/notifications');
    await new Promise((r) => setTimeout(r, 200));
    expect(h.smtp.countTo(u.email)).toBe(before + 1);

    const none = await h.call('hub_setUserEmailConfig', { types: [] }, { token: u.token });
    expect(none.result).toEqual({ types: [] });
    expect((await h.call('hub_getUserEmailConfig', {}, { token: u.token })).result!.types).toEqual(
      [],
    );
  });

  it('mails the per-type wording the web app shows, in the user’s language; SPEC §8 types keep the server text', async () => {
    const [zh, en] = [await user('zh'), await user('en')];
    const deposit = { coinAmount: '250.5', coin: 'USDT', usdAmount: '250.5' };
    await raise(zh.userId, 'deposit', Date.now(), 'Deposit of 250.5 USDT', deposit);
    const zhMail = await h.smtp.nextMailTo(zh.email);
    expect(subjectOf(zhMail)).toBe('[通知] 充值已到账');
    expect(zhMail.text).toContain('您充值的 250.5 USDT（约 $250.5）已到账。');
    expect(zhMail.text).not.toContain('Deposit of 250.5 USDT');

    await raise(en.userId, 'deposit', Date.now(), 'Deposit of 250.5 USDT', deposit);
    const enMail = await h.smtp.nextMailTo(en.email);
    expect(subjectOf(enMail)).toBe('[Notice] Deposit received');
    expect(enMail.text).toContain(
      'Your deposit of 250.5 USDT (about $250.5) has arrived in your wallet.',
    );

    // A time reads in the user's language, in UTC, and says so.
    const ends = Date.UTC(2026, 0, 31, 12, 5);
    await raise(zh.userId, 'expired', Date.now(), 'Package expired', {
      skuName: 'Growth',
      timeStamp: ends,
    });
    expect((await h.smtp.nextMailTo(zh.email)).text).toContain(
      '您的套餐 Growth 已于 2026年1月31日 UTC 12:05 过期。',
    );
    await raise(en.userId, 'expired', Date.now(), 'Package expired', {
      skuName: 'Growth',
      timeStamp: ends,
    });
    expect((await h.smtp.nextMailTo(en.email)).text).toContain(
      'Your package Growth expired on Jan 31, 2026, 12:05 UTC.',
    );

    // normal_warn (a spend-limit alert) has no wording of its own: the stored text, as the web app shows it.
    await raise(zh.userId, 'normal_warn', Date.now(), 'Spend limit reached', { amount: 5 });
    const warn = await h.smtp.nextMailTo(zh.email);
    expect(subjectOf(warn)).toBe('[通知] Spend limit reached');
    expect(warn.text).toContain('Spend limit reached content');
  });

  it('a notice mail survives missing, mistyped and hostile expand values', async () => {
    const u = await user('zh');
    await raise(u.userId, 'deposit', Date.now(), 'Deposit', {
      coinAmount: { nested: true },
      coin: '<img src=x onerror=alert(1)>',
      usdAmount: null,
    });
    const mail = await h.smtp.nextMailTo(u.email);
    expect(subjectOf(mail)).toBe('[通知] 充值已到账');
    const html = mail.text.slice(mail.text.indexOf('Content-Type: text/html'));
    expect(html).toContain('您充值的 - &#60;img src=x onerror=alert(1)&#62;（约 $-）已到账。');
    expect(html).not.toContain('<img');
  });
});
