/**
 * Support tickets (POST /support/ticket, hub_getSupportTickets), operator banners (hub_getBanner, the ops:banner
 * commands) and event tracking (hub_saveEventTracking), on each test database.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  ERROR_CODES,
  SUPPORT_TICKET_PATH,
  TICKET_ATTACHMENT_MAX_BYTES,
  TRACKING_MAX_EVENTS,
} from '@rpc/contract';
import { banners, notices, supportTickets, trackingEvents, users } from '@rpc/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBannerCommand } from '../src/services/support/banner-command';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, randomIp, type THarness } from './helpers/harness';

const SUPPORT = 'ops-support@example.com';
const HOUR = 3_600_000;
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  randomBytes(64),
]);

type TFile = { field?: string; filename: string; type: string; bytes: Buffer };
type TEnvelope = {
  result?: { ticketId: string; number: string; createdAt: number };
  error?: { code: number; details?: Array<{ path: string }> };
};

/** A multipart/form-data body built by hand, as a browser would send it. */
function multipart(fields: Record<string, string>, files: TFile[] = []) {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? 'attachment'}"; filename="${f.filename}"\r\nContent-Type: ${f.type}\r\n\r\n`,
      ),
      f.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

const GOOD = {
  category: 'technical',
  subject: 'Requests to localnet time out',
  body: 'Since this morning every eth_call through my key times out after 60 s.',
};

describe.each(TEST_DATABASES)('support on $name', ({ open }) => {
  let h: THarness;
  beforeAll(async () => {
    h = await createHarness(open, { env: { SUPPORT_EMAIL: SUPPORT } });
  });
  afterAll(async () => {
    await h?.close();
  });

  async function user(language?: 'en' | 'zh') {
    const s = await h.signUp(language ? { language } : {});
    const [u] = await h.database.db.select().from(users).where(eq(users.email, s.email));
    return { ...s, userId: u!.id, accountId: u!.personalAccountId };
  }
  type TUser = Awaited<ReturnType<typeof user>>;

  async function fileTicket(
    token: string | null,
    fields: Record<string, string>,
    files: TFile[] = [],
    o: { teamId?: string; contentType?: string } = {},
  ): Promise<TEnvelope> {
    const body = multipart(fields, files);
    const res = await h.server.app.inject({
      method: 'POST',
      url: SUPPORT_TICKET_PATH,
      payload: body.payload,
      remoteAddress: randomIp(),
      headers: {
        'content-type': o.contentType ?? body.contentType,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(o.teamId ? { 'x-team-id': o.teamId } : {}),
      },
    });
    expect(res.statusCode).toBe(200);
    return res.json<TEnvelope>();
  }

  async function ticketsOf(accountId: string) {
    return h.database.db
      .select()
      .from(supportTickets)
      .where(eq(supportTickets.accountId, accountId));
  }

  describe('tickets', () => {
    let me: TUser;
    beforeAll(async () => {
      me = await user();
    });

    it('stores a ticket, mails it as plain text to SUPPORT_EMAIL and raises a normal_success notice', async () => {
      const key = await h.call('hub_generateApiKey', { name: 'prod' }, { token: me.token });
      if (!key.ok) throw new Error(JSON.stringify(key.error));
      const res = await fileTicket(
        me.token,
        { ...GOOD, body: `${GOOD.body}\n<b>not html</b>`, apiKeyId: key.result.keyId },
        [{ filename: 'screen shot.png', type: 'image/png', bytes: PNG }],
      );
      expect(res.error).toBeUndefined();
      expect(res.result!.number).toMatch(/^TKT-\d{6,}$/);

      const [row] = await ticketsOf(me.accountId);
      expect(row).toMatchObject({
        userId: me.userId,
        category: 'technical',
        subject: GOOD.subject,
        apiKeyId: key.result.keyId,
        attachmentName: 'screen_shot.png',
        attachmentType: 'image/png',
        status: 'open',
      });
      expect(Buffer.from(row!.attachment!).equals(PNG)).toBe(true);

      const mail = await h.smtp.nextMailTo(SUPPORT);
      expect(mail.raw).toMatch(new RegExp(`^Subject: \\[Support ${res.result!.number}\\]`, 'm'));
      expect(mail.text).toContain('<b>not html</b>');
      expect(mail.text).toContain(me.email);
      expect(mail.raw).not.toMatch(/text\/html/i);

      const raised = await h.database.db
        .select()
        .from(notices)
        .where(eq(notices.userId, me.userId));
      expect(raised.map((n) => [n.type, n.title])).toContainEqual([
        'normal_success',
        `Ticket ${res.result!.number} received`,
      ]);
    });

    it('lists tickets newest first for their account only, paged', async () => {
      const mine = await user();
      h.clock.advance(1000);
      const first = await fileTicket(mine.token, { ...GOOD, subject: 'First question' });
      h.clock.advance(1000);
      const second = await fileTicket(mine.token, {
        ...GOOD,
        category: 'billing',
        subject: 'Second',
      });
      const list = await h.call('hub_getSupportTickets', { page: 1, perPage: 5 }, mine);
      if (!list.ok) throw new Error(JSON.stringify(list.error));
      expect(list.result.total).toBe(2);
      expect(list.result.list.map((t) => [t.number, t.subject, t.status, t.hasAttachment])).toEqual(
        [
          [second.result!.number, 'Second', 'open', false],
          [first.result!.number, 'First question', 'open', false],
        ],
      );
      const page2 = await h.call('hub_getSupportTickets', { page: 2, perPage: 1 }, mine);
      expect(page2.ok && page2.result.list.map((t) => t.subject)).toEqual(['First question']);

      const other = await user();
      const theirs = await h.call('hub_getSupportTickets', {}, other);
      expect(theirs.ok && theirs.result).toMatchObject({ list: [], total: 0 });
    });

    it("files a team member's ticket for the team: listed in the team, not in the member's own account", async () => {
      const owner = await user();
      const member = await user();
      const team = await h.call('hub_createTeam', { teamName: 'Support team' }, owner);
      if (!team.ok) throw new Error(JSON.stringify(team.error));
      const teamId = team.result.teamId;
      const invite = await h.call(
        'hub_addMember',
        { teamId, email: member.email, role: 'viewer' },
        owner,
      );
      if (!invite.ok) throw new Error(JSON.stringify(invite.error));
      const ok = await h.call('hub_approveInvite', { inviteId: invite.result.inviteId }, member);
      expect(ok.ok).toBe(true);

      const res = await fileTicket(member.token, GOOD, [], { teamId });
      expect(res.error).toBeUndefined();
      expect(await ticketsOf(teamId)).toHaveLength(1);
      expect(await ticketsOf(member.accountId)).toHaveLength(0);
      const asOwner = await h.call('hub_getSupportTickets', {}, { token: owner.token, teamId });
      expect(asOwner.ok && asOwner.result.total).toBe(1);
      const personal = await h.call('hub_getSupportTickets', {}, member);
      expect(personal.ok && personal.result.total).toBe(0);
      // Not a member: refused before anything is read.
      const stranger = await user();
      const refused = await fileTicket(stranger.token, GOOD, [], { teamId });
      expect(refused.error?.code).toBe(ERROR_CODES.TEAM_FORBIDDEN);
      expect(await ticketsOf(teamId)).toHaveLength(1);
    });

    it('names a path-trick file by its last segment and its sniffed type', async () => {
      const u = await user();
      const res = await fileTicket(u.token, GOOD, [
        {
          filename: '../../etc/passwd',
          type: 'application/octet-stream',
          bytes: Buffer.from('root:x:0:0\n'),
        },
      ]);
      expect(res.error).toBeUndefined();
      const [row] = await ticketsOf(u.accountId);
      expect(row).toMatchObject({ attachmentName: 'passwd.txt', attachmentType: 'text/plain' });
    });

    it('refuses a key of another account', async () => {
      const u = await user();
      const other = await user();
      const key = await h.call('hub_generateApiKey', { name: 'theirs' }, other);
      if (!key.ok) throw new Error(JSON.stringify(key.error));
      const res = await fileTicket(u.token, { ...GOOD, apiKeyId: key.result.keyId });
      expect(res.error?.code).toBe(ERROR_CODES.TICKET_API_KEY_UNKNOWN);
      expect(await ticketsOf(u.accountId)).toHaveLength(0);
    });

    const BAD: Array<[string, Record<string, string>, TFile[], number]> = [
      ['no subject', { category: 'other', body: GOOD.body }, [], ERROR_CODES.INVALID_PARAMS],
      ['no body', { category: 'other', subject: GOOD.subject }, [], ERROR_CODES.INVALID_PARAMS],
      ['oversize subject', { ...GOOD, subject: 's'.repeat(201) }, [], ERROR_CODES.INVALID_PARAMS],
      ['oversize body', { ...GOOD, body: 'b'.repeat(10_001) }, [], ERROR_CODES.INVALID_PARAMS],
      [
        'body past the field limit',
        { ...GOOD, body: 'b'.repeat(60_000) },
        [],
        ERROR_CODES.INVALID_PARAMS,
      ],
      ['unknown category', { ...GOOD, category: 'refund-now' }, [], ERROR_CODES.INVALID_PARAMS],
      [
        'subject with a header',
        { ...GOOD, subject: 'Hi\r\nBcc: victim@example.com' },
        [],
        ERROR_CODES.INVALID_PARAMS,
      ],
      ['api key id not a uuid', { ...GOOD, apiKeyId: "1' or 1=1" }, [], ERROR_CODES.INVALID_PARAMS],
      [
        'unknown api key',
        { ...GOOD, apiKeyId: randomUUID() },
        [],
        ERROR_CODES.TICKET_API_KEY_UNKNOWN,
      ],
      ['unknown field', { ...GOOD, priority: 'urgent' }, [], ERROR_CODES.TICKET_FORM_INVALID],
      [
        'oversize attachment',
        GOOD,
        [
          {
            filename: 'big.txt',
            type: 'text/plain',
            bytes: Buffer.alloc(TICKET_ATTACHMENT_MAX_BYTES + 1, 'a'),
          },
        ],
        ERROR_CODES.TICKET_ATTACHMENT_TOO_LARGE,
      ],
      [
        'lying type (an executable named .png)',
        GOOD,
        [
          {
            filename: 'cat.png',
            type: 'image/png',
            bytes: Buffer.concat([Buffer.from('MZ\x90\x00'), randomBytes(64)]),
          },
        ],
        ERROR_CODES.TICKET_ATTACHMENT_TYPE,
      ],
      [
        'html named .txt with a NUL',
        GOOD,
        [{ filename: 'a.txt', type: 'text/plain', bytes: Buffer.from('<script>\u0000</script>') }],
        ERROR_CODES.TICKET_ATTACHMENT_TYPE,
      ],
      [
        'two files',
        GOOD,
        [
          { filename: 'a.txt', type: 'text/plain', bytes: Buffer.from('a') },
          { filename: 'b.txt', type: 'text/plain', bytes: Buffer.from('b') },
        ],
        ERROR_CODES.TICKET_FORM_INVALID,
      ],
      [
        'file under another field name',
        GOOD,
        [{ field: 'avatar', filename: 'a.txt', type: 'text/plain', bytes: Buffer.from('a') }],
        ERROR_CODES.TICKET_FORM_INVALID,
      ],
    ];

    it.each(BAD)(
      'refuses %s with its code and stores nothing',
      async (_name, fields, files, code) => {
        const u = await user();
        const mailsBefore = h.smtp.countTo(SUPPORT);
        const res = await fileTicket(u.token, fields, files);
        expect(res.error?.code).toBe(code);
        expect(await ticketsOf(u.accountId)).toHaveLength(0);
        expect(h.smtp.countTo(SUPPORT)).toBe(mailsBefore);
      },
    );

    it('refuses a missing or unknown token (10101) and a JSON body (10006), storing nothing', async () => {
      const before = (await h.database.db.select().from(supportTickets)).length;
      expect((await fileTicket(null, GOOD)).error?.code).toBe(ERROR_CODES.SESSION_MISSING);
      expect((await fileTicket('x'.repeat(43), GOOD)).error?.code).toBe(
        ERROR_CODES.SESSION_MISSING,
      );
      const res = await h.server.app.inject({
        method: 'POST',
        url: SUPPORT_TICKET_PATH,
        payload: JSON.stringify(GOOD),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${me.token}` },
      });
      expect(res.json<TEnvelope>().error?.code).toBe(ERROR_CODES.UNSUPPORTED_MEDIA_TYPE);
      expect((await h.database.db.select().from(supportTickets)).length).toBe(before);
    });

    it('throttles tickets per user (10429) once ten went through in an hour', async () => {
      const u = await user();
      for (let i = 0; i < 10; i += 1) {
        const res = await fileTicket(u.token, { ...GOOD, subject: `Question ${i}` });
        expect(res.error).toBeUndefined();
      }
      const res = await fileTicket(u.token, GOOD);
      expect(res.error?.code).toBe(ERROR_CODES.RATE_LIMITED);
      expect(await ticketsOf(u.accountId)).toHaveLength(10);
    });
  });

  describe('banners', () => {
    async function addBanner(args: string[]) {
      const out = await runBannerCommand(h.database.db, ['add', ...args], h.clock.now());
      expect(out.exitCode, out.lines.join('\n')).toBe(0);
      return /^added (\S+)/.exec(out.lines[0]!)![1]!;
    }
    const iso = (ms: number) => new Date(ms).toISOString();

    it('shows a banner only inside its window and only to its language', async () => {
      const en = await user('en');
      const zh = await user('zh');
      const now = h.clock.now();
      // Every banner of this test starts in the future, so earlier tests' banners do not interfere.
      const start = now + 10 * HOUR;
      const zhOnly = await addBanner([
        '--lang',
        'zh',
        '--text',
        '维护通知',
        '--from',
        iso(start),
        '--to',
        iso(start + HOUR),
      ]);
      const banner = async (u: TUser, language?: 'en' | 'zh') => {
        const res = await h.call('hub_getBanner', language ? { language } : {}, u);
        if (!res.ok) throw new Error(JSON.stringify(res.error));
        return res.result;
      };
      expect(await banner(zh)).toBeNull(); // before its start
      h.clock.advance(10 * HOUR);
      expect(await banner(zh)).toMatchObject({ bannerId: zhOnly, text: '维护通知', level: 'info' });
      expect(await banner(en)).toBeNull(); // zh-only for an en user
      expect(await banner(en, 'zh')).toMatchObject({ bannerId: zhOnly }); // the console shown in Chinese
      h.clock.advance(HOUR);
      expect(await banner(zh)).toBeNull(); // at its end

      const allId = await addBanner([
        '--lang',
        'all',
        '--level',
        'warning',
        '--text',
        'Maintenance tonight',
        '--link',
        'https://status.example.com/x',
        '--from',
        iso(h.clock.now()),
        '--to',
        iso(h.clock.now() + HOUR),
      ]);
      expect(await banner(en)).toMatchObject({
        bannerId: allId,
        level: 'warning',
        linkUrl: 'https://status.example.com/x',
      });
      expect(await banner(zh)).toMatchObject({ bannerId: allId });

      const list = await runBannerCommand(h.database.db, ['list'], h.clock.now());
      expect(list.lines.join('\n')).toContain(`${allId}  live`);
      const ended = await runBannerCommand(h.database.db, ['end', allId], h.clock.now());
      expect(ended).toEqual({ lines: [`ended ${allId}`], exitCode: 0 });
      expect(await banner(en)).toBeNull();
      h.clock.advance(HOUR);
    });

    it.each([
      [
        [
          '--lang',
          'en',
          '--text',
          'x',
          '--link',
          'javascript:alert(1)',
          '--from',
          '2030-01-01',
          '--to',
          '2030-01-02',
        ],
      ],
      [
        [
          '--lang',
          'en',
          '--text',
          'x',
          '--link',
          'data:text/html,hi',
          '--from',
          '2030-01-01',
          '--to',
          '2030-01-02',
        ],
      ],
      [['--lang', 'fr', '--text', 'x', '--from', '2030-01-01', '--to', '2030-01-02']],
      [
        [
          '--lang',
          'en',
          '--text',
          'x',
          '--level',
          'error',
          '--from',
          '2030-01-01',
          '--to',
          '2030-01-02',
        ],
      ],
      [['--lang', 'en', '--text', '', '--from', '2030-01-01', '--to', '2030-01-02']],
      [['--lang', 'en', '--text', 'x', '--from', '2030-01-02', '--to', '2030-01-01']],
      [['--lang', 'en', '--text', 'x', '--from', 'next tuesday', '--to', '2030-01-01']],
      [
        [
          '--lang',
          'en',
          '--text',
          'x',
          '--from',
          '2030-01-01',
          '--to',
          '2030-01-02',
          '--colour',
          'red',
        ],
      ],
    ])('the script refuses %j and adds nothing', async (args) => {
      const before = (await h.database.db.select().from(banners)).length;
      const out = await runBannerCommand(h.database.db, ['add', ...args], h.clock.now());
      expect(out.exitCode).toBe(2);
      expect((await h.database.db.select().from(banners)).length).toBe(before);
    });

    it('the script answers 1 for ending an unknown banner and usage for no command', async () => {
      expect(
        (await runBannerCommand(h.database.db, ['end', randomUUID()], h.clock.now())).exitCode,
      ).toBe(1);
      expect((await runBannerCommand(h.database.db, [], h.clock.now())).exitCode).toBe(2);
    });
  });

  describe('event tracking', () => {
    async function rowsOf(accountId: string) {
      return h.database.db
        .select()
        .from(trackingEvents)
        .where(eq(trackingEvents.accountId, accountId));
    }

    it('stores a batch against the acting account with nothing personal', async () => {
      const u = await user();
      const now = h.clock.now();
      const res = await h.call(
        'hub_saveEventTracking',
        {
          events: [
            { page: '/rpc/endpoint', action: 'view', at: now - 5000 },
            { page: '/rpc/billings', action: 'support.open', at: now },
          ],
        },
        u,
      );
      expect(res.ok && res.result).toEqual({ success: true, saved: 2 });
      const rows = await rowsOf(u.accountId);
      expect(rows.map((r) => [r.page, r.action, r.at.getTime()]).sort()).toEqual(
        [
          ['/rpc/billings', 'support.open', now],
          ['/rpc/endpoint', 'view', now - 5000],
        ].sort(),
      );
      // The table has no place for a user id, IP or user agent, and no value carries one.
      expect(Object.keys(rows[0]!).sort()).toEqual([
        'accountId',
        'action',
        'at',
        'id',
        'page',
        'receivedAt',
      ]);
      expect(JSON.stringify(rows)).not.toContain(u.userId);
      expect(JSON.stringify(rows)).not.toContain(u.email);
    });

    const now = () => h.clock.now();
    const BAD: Array<[string, () => unknown, number]> = [
      [
        'too many events',
        () => ({
          events: Array.from({ length: TRACKING_MAX_EVENTS + 1 }, () => ({
            page: '/rpc',
            action: 'view',
            at: now(),
          })),
        }),
        ERROR_CODES.INVALID_PARAMS,
      ],
      [
        'a time in the future',
        () => ({ events: [{ page: '/rpc', action: 'view', at: now() + 5 * 60_000 }] }),
        ERROR_CODES.TRACKING_EVENT_TIME,
      ],
      [
        'a time over a day old',
        () => ({ events: [{ page: '/rpc', action: 'view', at: now() - 25 * HOUR }] }),
        ERROR_CODES.TRACKING_EVENT_TIME,
      ],
      [
        'a query string',
        () => ({ events: [{ page: '/rpc/endpoint?email=a@b.co', action: 'view', at: now() }] }),
        ERROR_CODES.INVALID_PARAMS,
      ],
      [
        'a fragment',
        () => ({ events: [{ page: '/rpc#token=abc', action: 'view', at: now() }] }),
        ERROR_CODES.INVALID_PARAMS,
      ],
      [
        'a full URL',
        () => ({ events: [{ page: 'https://evil.example/rpc', action: 'view', at: now() }] }),
        ERROR_CODES.INVALID_PARAMS,
      ],
      [
        'a long page',
        () => ({ events: [{ page: `/${'a'.repeat(250)}`, action: 'view', at: now() }] }),
        ERROR_CODES.INVALID_PARAMS,
      ],
      [
        'free text as action',
        () => ({ events: [{ page: '/rpc', action: 'typed my password hunter2', at: now() }] }),
        ERROR_CODES.INVALID_PARAMS,
      ],
      [
        'an unknown event field',
        () => ({ events: [{ page: '/rpc', action: 'view', at: now(), userAgent: 'Mozilla' }] }),
        ERROR_CODES.INVALID_PARAMS,
      ],
      [
        'an unknown top-level field',
        () => ({ events: [], userId: 'u1' }),
        ERROR_CODES.INVALID_PARAMS,
      ],
    ];

    it.each(BAD)('refuses %s and stores nothing', async (_name, params, code) => {
      const u = await user();
      const res = await h.raw(
        { method: 'hub_saveEventTracking', params: params(), id: 1 },
        { token: u.token },
      );
      expect(res.error?.code).toBe(code);
      expect(await rowsOf(u.accountId)).toHaveLength(0);
    });

    it('needs a session and is throttled per user', async () => {
      const anonymous = await h.call('hub_saveEventTracking', { events: [] });
      expect(anonymous.ok || anonymous.error.code).toBe(ERROR_CODES.SESSION_MISSING);
      const u = await user();
      for (let i = 0; i < 30; i += 1) {
        const res = await h.call('hub_saveEventTracking', { events: [] }, u);
        expect(res.ok).toBe(true);
      }
      const res = await h.call('hub_saveEventTracking', { events: [] }, u);
      expect(res.ok || res.error.code).toBe(ERROR_CODES.RATE_LIMITED);
    });
  });
});
