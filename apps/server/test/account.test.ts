/** Every account method, good and bad input, in-process through the dispatcher, on each test database. */
import { CONFIRM_CODE_TTL_MS, ERROR_CODES, RESET_CODE_TTL_MS, SESSION_TTL_MS } from '@rpc/contract';
import { accountMembers, accounts, sessions, users } from '@rpc/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRequestBody } from '../src/rpc/parse-body';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, digest, uniqueEmail, type THarness } from './helpers/harness';
import { linkOf, subjectOf } from './helpers/smtp';

const MINUTE = 60_000;

describe.each(TEST_DATABASES)('account API on $name', ({ open }) => {
  let h: THarness;
  beforeAll(async () => {
    h = await createHarness(open);
  });
  afterAll(async () => {
    await h?.close();
  });

  async function codeFromNextMail(email: string, expectedPath: string): Promise<string> {
    const link = linkOf(await h.smtp.nextMailTo(email));
    expect(link.origin).toBe('http://console.test');
    expect(link.pathname).toBe(expectedPath);
    return link.searchParams.get('code')!;
  }

  describe('hub_register, hub_emailConfirm, hub_checkEmailConfirmCodeStatus', () => {
    it('creates user, personal account and owner membership, mails the link in the user language, confirms once', async () => {
      const email = uniqueEmail('Reg');
      const reg = await h.call('hub_register', {
        email: `  ${email.toUpperCase()} `,
        password: digest('pw1'),
        confirmPassword: digest('pw1'),
        language: 'zh',
      });
      expect(reg).toEqual({
        ok: true,
        result: { email: email.toLowerCase(), confirmMailSent: true },
      });

      const [user] = await h.database.db
        .select()
        .from(users)
        .where(eq(users.email, email.toLowerCase()));
      expect(user).toBeDefined();
      expect(user!.passwordHash).toMatch(/^\$argon2id\$/);
      expect(user!.passwordHash).not.toContain(digest('pw1'));
      expect(user!.initialized).toBe(true);
      expect(user!.acceptTerm).toBe(true);
      const members = await h.database.db
        .select({ role: accountMembers.role, kind: accounts.kind })
        .from(accountMembers)
        .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
        .where(eq(accountMembers.userId, user!.id));
      expect(members).toEqual([{ role: 'owner', kind: 'personal' }]);

      const mail = await h.smtp.nextMailTo(email);
      expect(subjectOf(mail)).toBe('请验证您的邮箱地址');
      const link = linkOf(mail);
      expect(link.pathname).toBe('/activate-account');
      const code = link.searchParams.get('code')!;

      expect(await h.call('hub_checkEmailConfirmCodeStatus', { code })).toEqual({
        ok: true,
        result: { status: 'valid', email: email.toLowerCase() },
      });
      const early = await h.call('hub_login', { email, password: digest('pw1') });
      expect(early.error?.code).toBe(ERROR_CODES.EMAIL_NOT_CONFIRMED);

      expect(await h.call('hub_emailConfirm', { code })).toEqual({
        ok: true,
        result: { email: email.toLowerCase(), confirmed: true },
      });
      expect((await h.call('hub_checkEmailConfirmCodeStatus', { code })).result?.status).toBe(
        'used',
      );
      expect((await h.call('hub_emailConfirm', { code })).error?.code).toBe(ERROR_CODES.CODE_USED);

      const login = await h.call('hub_login', { email, password: digest('pw1') });
      expect(login.ok).toBe(true);
      const profile = await h.call('hub_getUserProfile', {}, { token: login.result!.token });
      expect(profile.result).toMatchObject({
        id: user!.id,
        accountId: user!.personalAccountId,
        email: email.toLowerCase(),
        mailStatus: 1,
        initialize: true,
        acceptTerm: true,
        isNoPassword: false,
        language: 'zh',
        teamList: [],
        hasTeam: false,
        hasInvite: false,
        totalApiKeys: 0,
        oauth: [],
        userType: 'user',
        rechargeTips: 1,
      });
    });

    it('refuses mismatched passwords (10206) and writes nothing', async () => {
      const email = uniqueEmail();
      const res = await h.call('hub_register', {
        email,
        password: digest('a'),
        confirmPassword: digest('b'),
      });
      expect(res.error?.code).toBe(ERROR_CODES.PASSWORD_MISMATCH);
      expect((await h.call('hub_emailExists', { email })).result).toEqual({ exists: false });
      expect(h.smtp.countTo(email)).toBe(0);
    });

    it('refuses a registered address in any letter case (10201), also when two sign-ups race', async () => {
      const email = uniqueEmail();
      const p = { password: digest('x'), confirmPassword: digest('x') };
      expect((await h.call('hub_register', { email, ...p })).ok).toBe(true);
      expect((await h.call('hub_register', { email: email.toUpperCase(), ...p })).error?.code).toBe(
        ERROR_CODES.EMAIL_TAKEN,
      );

      const racing = uniqueEmail('race');
      const both = await Promise.all([
        h.call('hub_register', { email: racing, ...p }),
        h.call('hub_register', { email: racing, ...p }),
      ]);
      expect(both.filter((r) => r.ok)).toHaveLength(1);
      expect(both.find((r) => !r.ok)?.error?.code).toBe(ERROR_CODES.EMAIL_TAKEN);
      const rows = await h.database.db.select().from(users).where(eq(users.email, racing));
      expect(rows).toHaveLength(1);
    });

    it('answers 10204 for an unknown or expired confirmation code', async () => {
      expect((await h.call('hub_emailConfirm', { code: 'A'.repeat(43) })).error?.code).toBe(
        ERROR_CODES.CONFIRM_CODE_INVALID,
      );
      expect(
        (await h.call('hub_checkEmailConfirmCodeStatus', { code: 'A'.repeat(43) })).result,
      ).toEqual({
        status: 'invalid',
        email: null,
      });
      const email = uniqueEmail();
      await h.call('hub_register', { email, password: digest('x'), confirmPassword: digest('x') });
      const code = await codeFromNextMail(email, '/activate-account');
      h.clock.advance(CONFIRM_CODE_TTL_MS + 1);
      expect((await h.call('hub_checkEmailConfirmCodeStatus', { code })).result?.status).toBe(
        'expired',
      );
      expect((await h.call('hub_emailConfirm', { code })).error?.code).toBe(
        ERROR_CODES.CONFIRM_CODE_INVALID,
      );
    });
  });

  describe('hub_sendRegisterConfirmMail', () => {
    it('mails a fresh code to an unconfirmed user only, and always answers sent', async () => {
      const nobody = uniqueEmail('nobody');
      expect((await h.call('hub_sendRegisterConfirmMail', { email: nobody })).result).toEqual({
        sent: true,
      });
      expect(h.smtp.countTo(nobody)).toBe(0);

      const email = uniqueEmail();
      await h.call('hub_register', { email, password: digest('x'), confirmPassword: digest('x') });
      const first = await codeFromNextMail(email, '/activate-account');
      expect((await h.call('hub_sendRegisterConfirmMail', { email })).result).toEqual({
        sent: true,
      });
      const second = await codeFromNextMail(email, '/activate-account');
      expect(second).not.toBe(first);
      expect((await h.call('hub_emailConfirm', { code: second })).ok).toBe(true);

      const before = h.smtp.countTo(email);
      expect((await h.call('hub_sendRegisterConfirmMail', { email })).result).toEqual({
        sent: true,
      });
      await new Promise((r) => setTimeout(r, 100));
      expect(h.smtp.countTo(email)).toBe(before);
    });
  });

  describe('hub_emailExists', () => {
    it('tells registered from unknown addresses and rejects malformed ones with details', async () => {
      const { email } = await h.signUp();
      expect((await h.call('hub_emailExists', { email: email.toUpperCase() })).result).toEqual({
        exists: true,
      });
      expect((await h.call('hub_emailExists', { email: uniqueEmail() })).result).toEqual({
        exists: false,
      });
      const bad = await h.call('hub_emailExists', { email: 'not-an-email' });
      expect(bad.error?.code).toBe(ERROR_CODES.INVALID_PARAMS);
      expect(bad.error?.details?.[0]?.path).toBe('email');
    });
  });

  describe('hub_login, hub_logout, sessions', () => {
    it('answers 10202 alike for an unknown address and a wrong password', async () => {
      const { email } = await h.signUp({ password: 'right' });
      const wrong = await h.call('hub_login', { email, password: digest('wrong') });
      const unknown = await h.call('hub_login', {
        email: uniqueEmail(),
        password: digest('right'),
      });
      expect(wrong.error).toEqual(unknown.error);
      expect(wrong.error?.code).toBe(ERROR_CODES.BAD_CREDENTIALS);
    });

    it('returns a 30-day token stored only as its SHA-256; logout ends it (10103)', async () => {
      const { email, password } = await h.signUp();
      const login = await h.call('hub_login', { email, password: digest(password) });
      const { token, expiresAt } = login.result!;
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(expiresAt).toBe(h.clock.now() + SESSION_TTL_MS);
      const stored = await h.database.db.select({ tokenHash: sessions.tokenHash }).from(sessions);
      expect(stored.some((s) => s.tokenHash === token)).toBe(false);

      expect((await h.call('hub_getUserProfile', {}, { token })).ok).toBe(true);
      expect((await h.call('hub_logout', {}, { token })).result).toEqual({ success: true });
      expect((await h.call('hub_getUserProfile', {}, { token })).error?.code).toBe(
        ERROR_CODES.SESSION_REVOKED,
      );
      expect((await h.call('hub_logout', {}, { token })).error?.code).toBe(
        ERROR_CODES.SESSION_REVOKED,
      );
    });

    it('answers 10101 without a token or with an unknown one, 10102 after 30 days', async () => {
      expect((await h.call('hub_getUserProfile')).error?.code).toBe(ERROR_CODES.SESSION_MISSING);
      expect((await h.call('hub_getUserProfile', {}, { token: 'x'.repeat(43) })).error?.code).toBe(
        ERROR_CODES.SESSION_MISSING,
      );
      expect((await h.call('hub_getUserProfile', {}, { token: "' or 1=1 --" })).error?.code).toBe(
        ERROR_CODES.SESSION_MISSING,
      );
      const { token } = await h.signUp();
      h.clock.advance(SESSION_TTL_MS - 1000);
      expect((await h.call('hub_getUserProfile', {}, { token })).ok).toBe(true);
      h.clock.advance(1000);
      expect((await h.call('hub_getUserProfile', {}, { token })).error?.code).toBe(
        ERROR_CODES.SESSION_EXPIRED,
      );
    });
  });

  describe('X-Team-Id and the acting account', () => {
    it('accepts accounts the user belongs to and lists teams; refuses others with 10301', async () => {
      const { token } = await h.signUp();
      const me = (await h.call('hub_getUserProfile', {}, { token })).result!;
      expect((await h.call('hub_getUserProfile', {}, { token, teamId: me.accountId })).ok).toBe(
        true,
      );
      expect(
        (
          await h.call(
            'hub_getUserProfile',
            {},
            { token, teamId: '00000000-0000-4000-8000-000000000000' },
          )
        ).error?.code,
      ).toBe(ERROR_CODES.TEAM_FORBIDDEN);
      expect(
        (await h.call('hub_getUserProfile', {}, { token, teamId: "x'; drop table users" })).error
          ?.code,
      ).toBe(ERROR_CODES.TEAM_FORBIDDEN);

      // Teams have no methods yet; create one directly to show the profile already reads memberships.
      const [team] = await h.database.db
        .insert(accounts)
        .values({ kind: 'team', name: 'Team Rocket' })
        .returning({ id: accounts.id });
      await h.database.db
        .insert(accountMembers)
        .values({ accountId: team!.id, userId: me.id, role: 'admin' });
      const asTeam = await h.call('hub_getUserProfile', {}, { token, teamId: team!.id });
      expect(asTeam.result).toMatchObject({
        hasTeam: true,
        teamList: [{ teamId: team!.id, teamName: 'Team Rocket', role: 'admin' }],
      });
      const other = await h.signUp();
      expect(
        (await h.call('hub_getUserProfile', {}, { token: other.token, teamId: team!.id })).error
          ?.code,
      ).toBe(ERROR_CODES.TEAM_FORBIDDEN);
    });
  });

  describe('hub_logout with a stale X-Team-Id', () => {
    it('signs out whatever team id the client still sends (never 10301)', async () => {
      const { token } = await h.signUp();
      const stale = '00000000-0000-4000-8000-000000000000';
      expect((await h.call('hub_getUserProfile', {}, { token, teamId: stale })).error?.code).toBe(
        ERROR_CODES.TEAM_FORBIDDEN,
      );
      expect((await h.call('hub_logout', {}, { token, teamId: stale })).result).toEqual({
        success: true,
      });
      expect((await h.call('hub_getUserProfile', {}, { token })).error?.code).toBe(
        ERROR_CODES.SESSION_REVOKED,
      );
      const other = await h.signUp();
      expect(
        (await h.call('hub_logout', {}, { token: other.token, teamId: 'not-a-uuid' })).ok,
      ).toBe(true);
    });
  });

  describe('hub_sendResetPasswordMail, hub_passwordResetCodeStatus, hub_passwordReset', () => {
    it('resets with a single-use mailed code, ends every session and the old password', async () => {
      const { email, password, token } = await h.signUp();
      expect((await h.call('hub_sendResetPasswordMail', { email })).result).toEqual({ sent: true });
      const code = await codeFromNextMail(email, '/reset-password/checking');
      expect((await h.call('hub_passwordResetCodeStatus', { code })).result).toEqual({
        status: 'valid',
        email,
      });

      const mismatch = await h.call('hub_passwordReset', {
        code,
        password: digest('n1'),
        confirmPassword: digest('n2'),
      });
      expect(mismatch.error?.code).toBe(ERROR_CODES.PASSWORD_MISMATCH);
      expect((await h.call('hub_passwordResetCodeStatus', { code })).result?.status).toBe('valid');

      const ok = await h.call('hub_passwordReset', {
        code,
        password: digest('new'),
        confirmPassword: digest('new'),
      });
      expect(ok.result).toEqual({ success: true });
      expect((await h.call('hub_getUserProfile', {}, { token })).error?.code).toBe(
        ERROR_CODES.SESSION_REVOKED,
      );
      expect((await h.call('hub_login', { email, password: digest(password) })).error?.code).toBe(
        ERROR_CODES.BAD_CREDENTIALS,
      );
      expect((await h.call('hub_login', { email, password: digest('new') })).ok).toBe(true);
      const again = await h.call('hub_passwordReset', {
        code,
        password: digest('x'),
        confirmPassword: digest('x'),
      });
      expect(again.error?.code).toBe(ERROR_CODES.CODE_USED);
      expect((await h.call('hub_passwordResetCodeStatus', { code })).result?.status).toBe('used');
    });

    it('mails set-password links for purpose set, nothing for unknown addresses', async () => {
      const { email } = await h.signUp();
      await h.call('hub_sendResetPasswordMail', { email, purpose: 'set' });
      const code = await codeFromNextMail(email, '/set-password/checking');
      expect((await h.call('hub_passwordResetCodeStatus', { code })).result?.status).toBe('valid');

      const nobody = uniqueEmail();
      expect((await h.call('hub_sendResetPasswordMail', { email: nobody })).result).toEqual({
        sent: true,
      });
      expect(h.smtp.countTo(nobody)).toBe(0);
      expect(
        (await h.call('hub_sendResetPasswordMail', { email, purpose: 'bogus' as 'set' })).error
          ?.code,
      ).toBe(ERROR_CODES.INVALID_PARAMS);
    });

    it('refuses expired (10205) and unknown codes; a reset also confirms the address', async () => {
      const email = uniqueEmail();
      await h.call('hub_register', { email, password: digest('x'), confirmPassword: digest('x') });
      await h.smtp.nextMailTo(email);
      await h.call('hub_sendResetPasswordMail', { email });
      const stale = await codeFromNextMail(email, '/reset-password/checking');
      h.clock.advance(RESET_CODE_TTL_MS + 1);
      expect((await h.call('hub_passwordResetCodeStatus', { code: stale })).result?.status).toBe(
        'expired',
      );
      const p = { password: digest('y'), confirmPassword: digest('y') };
      expect((await h.call('hub_passwordReset', { code: stale, ...p })).error?.code).toBe(
        ERROR_CODES.RESET_CODE_INVALID,
      );
      expect((await h.call('hub_passwordReset', { code: 'B'.repeat(43), ...p })).error?.code).toBe(
        ERROR_CODES.RESET_CODE_INVALID,
      );

      await h.call('hub_sendResetPasswordMail', { email });
      const fresh = await codeFromNextMail(email, '/reset-password/checking');
      expect((await h.call('hub_passwordReset', { code: fresh, ...p })).ok).toBe(true);
      const login = await h.call('hub_login', { email, password: digest('y') });
      expect(login.ok).toBe(true);
    });

    it('mails in the language the user chose', async () => {
      const { email, token } = await h.signUp();
      await h.call('hub_changeUserLang', { lang: 'zh' }, { token });
      await h.call('hub_sendResetPasswordMail', { email });
      expect(subjectOf(await h.smtp.nextMailTo(email))).toBe('重置您的密码');
    });
  });

  describe('hub_changePassword', () => {
    it('checks the old password and mismatch, keeps this session, ends the others', async () => {
      const { email, password, token } = await h.signUp();
      const other = (await h.call('hub_login', { email, password: digest(password) })).result!
        .token;
      const bad = await h.call(
        'hub_changePassword',
        { oldPassword: digest('nope'), password: digest('n'), confirmPassword: digest('n') },
        { token },
      );
      expect(bad.error?.code).toBe(ERROR_CODES.WRONG_PASSWORD);
      const mismatch = await h.call(
        'hub_changePassword',
        { oldPassword: digest(password), password: digest('n'), confirmPassword: digest('m') },
        { token },
      );
      expect(mismatch.error?.code).toBe(ERROR_CODES.PASSWORD_MISMATCH);
      const ok = await h.call(
        'hub_changePassword',
        { oldPassword: digest(password), password: digest('n'), confirmPassword: digest('n') },
        { token },
      );
      expect(ok.result).toEqual({ success: true });
      expect((await h.call('hub_getUserProfile', {}, { token })).ok).toBe(true);
      expect((await h.call('hub_getUserProfile', {}, { token: other })).error?.code).toBe(
        ERROR_CODES.SESSION_REVOKED,
      );
      expect((await h.call('hub_login', { email, password: digest('n') })).ok).toBe(true);
      const partial = { oldPassword: digest('n') } as never;
      expect((await h.call('hub_changePassword', partial, { token })).error?.code).toBe(
        ERROR_CODES.INVALID_PARAMS,
      );
      // Without a session the caller learns nothing about the params.
      expect((await h.call('hub_changePassword', partial)).error?.code).toBe(
        ERROR_CODES.SESSION_MISSING,
      );
    });
  });

  describe('profile setters', () => {
    let hostileUser: { token: string } | undefined;
    it('sets nickname, language, terms and recharge tips', async () => {
      const { token } = await h.signUp();
      expect(
        (await h.call('hub_setUserNickname', { nickname: '  小明 Ming ' }, { token })).result,
      ).toEqual({
        nickname: '小明 Ming',
      });
      expect((await h.call('hub_changeUserLang', { lang: 'zh' }, { token })).result).toEqual({
        language: 'zh',
      });
      expect((await h.call('hub_setRechargeTips', { rechargeTips: 0 }, { token })).result).toEqual({
        rechargeTips: 0,
      });
      expect((await h.call('hub_setUserAcceptTerm', {}, { token })).result).toEqual({
        acceptTerm: true,
        initialize: true,
      });
      expect((await h.call('hub_getUserProfile', {}, { token })).result).toMatchObject({
        nickname: '小明 Ming',
        language: 'zh',
        rechargeTips: 0,
        acceptTerm: true,
        initialize: true,
      });
    });

    it.each([
      ['nul byte', { nickname: 'a\u0000b' }],
      ['control character', { nickname: 'a\u0007b' }],
      ['bidi override', { nickname: 'abc\u202Egnp.exe' }],
      ['too long', { nickname: 'x'.repeat(33) }],
      ['huge', { nickname: 'x'.repeat(50_000) }],
      ['empty', { nickname: '   ' }],
      ['wrong type', { nickname: 42 }],
      ['object', { nickname: { $ne: 1 } }],
      ['missing', {}],
    ])('refuses a hostile nickname (%s) with 10004 and changes nothing', async (_name, params) => {
      // One user for all cases: each case checks its own before/after, so sharing hides nothing.
      hostileUser ??= await h.signUp();
      const { token } = hostileUser;
      const before = (await h.call('hub_getUserProfile', {}, { token })).result!.nickname;
      const res = await h.raw({ method: 'hub_setUserNickname', params, id: 7 }, { token });
      expect(res.id).toBe(7);
      expect(res.error?.code).toBe(ERROR_CODES.INVALID_PARAMS);
      expect(res.error?.details?.length).toBeGreaterThan(0);
      expect((await h.call('hub_getUserProfile', {}, { token })).result!.nickname).toBe(before);
    });

    it('refuses out-of-range language and recharge tips', async () => {
      const { token } = await h.signUp();
      expect(
        (await h.raw({ method: 'hub_changeUserLang', params: { lang: 'fr' } }, { token })).error
          ?.code,
      ).toBe(ERROR_CODES.INVALID_PARAMS);
      expect(
        (await h.raw({ method: 'hub_setRechargeTips', params: { rechargeTips: 2 } }, { token }))
          .error?.code,
      ).toBe(ERROR_CODES.INVALID_PARAMS);
      expect(
        (await h.raw({ method: 'hub_setRechargeTips', params: { rechargeTips: '1' } }, { token }))
          .error?.code,
      ).toBe(ERROR_CODES.INVALID_PARAMS);
    });
  });

  describe('hub_getConfig', () => {
    it('answers the gateway URL templates without a session', async () => {
      expect((await h.call('hub_getConfig')).result).toMatchObject({
        gatewayHttpUrlTemplate: 'http://gw.test/v1/{chain}/{key}',
        gatewayWsUrlTemplate: 'ws://gw.test/v1/{chain}/{key}',
        registrationOpen: true,
      });
    });
  });

  describe('envelope and hostile input', () => {
    it.each([
      ['no params', { method: 'hub_getConfig', id: 1 }],
      ['empty array params', { method: 'hub_getConfig', params: [], id: 1 }],
      ['[{}] params', { method: 'hub_getConfig', params: [{}], id: 1 }],
      ['extra envelope keys', { jsonrpc: '2.0', method: 'hub_getConfig', params: {}, id: 'abc' }],
    ])('accepts %s', async (_name, body) => {
      const res = await h.raw(body);
      expect(res.error).toBeUndefined();
      expect(res.id).toBe(body.id);
    });

    it('unwraps a one-element params array', async () => {
      const { email } = await h.signUp();
      expect(
        (await h.raw({ method: 'hub_emailExists', params: [{ email }], id: 1 })).result,
      ).toEqual({
        exists: true,
      });
    });

    it.each([
      ['a string body', 'hello', ERROR_CODES.INVALID_REQUEST],
      ['an array body (batch)', [{ method: 'hub_getConfig' }], ERROR_CODES.INVALID_REQUEST],
      ['no method', { params: {} }, ERROR_CODES.INVALID_REQUEST],
      ['a numeric method', { method: 5 }, ERROR_CODES.INVALID_REQUEST],
      ['params as a string', { method: 'hub_getConfig', params: 'x' }, ERROR_CODES.INVALID_REQUEST],
      [
        'two-element params',
        { method: 'hub_getConfig', params: [{}, {}] },
        ERROR_CODES.INVALID_REQUEST,
      ],
      ['an unknown method', { method: 'hub_nope' }, ERROR_CODES.METHOD_NOT_FOUND],
      ['a prototype method name', { method: 'toString' }, ERROR_CODES.METHOD_NOT_FOUND],
      ['__proto__ as method', { method: '__proto__' }, ERROR_CODES.METHOD_NOT_FOUND],
      ['params [5]', { method: 'hub_emailExists', params: [5] }, ERROR_CODES.INVALID_PARAMS],
      [
        'email as number',
        { method: 'hub_emailExists', params: { email: 5 } },
        ERROR_CODES.INVALID_PARAMS,
      ],
      [
        'email with nul',
        { method: 'hub_emailExists', params: { email: 'a\u0000@b.com' } },
        ERROR_CODES.INVALID_PARAMS,
      ],
      [
        'a huge email',
        { method: 'hub_emailExists', params: { email: `${'a'.repeat(60_000)}@b.com` } },
        ERROR_CODES.INVALID_PARAMS,
      ],
      [
        'nul in an ignored key',
        { method: 'hub_getConfig', params: { extra: 'x\u0000' } },
        ERROR_CODES.INVALID_PARAMS,
      ],
      [
        'deep nesting',
        {
          method: 'hub_getConfig',
          params: { a: JSON.parse('['.repeat(500) + ']'.repeat(500)) as unknown },
        },
        ERROR_CODES.INVALID_PARAMS,
      ],
      [
        'password not a digest',
        { method: 'hub_login', params: { email: 'a@b.com', password: 'plaintext' } },
        ERROR_CODES.INVALID_PARAMS,
      ],
      [
        'code with symbols',
        { method: 'hub_emailConfirm', params: { code: "'; drop table--xxxxxxx" } },
        ERROR_CODES.INVALID_PARAMS,
      ],
    ])('refuses %s', async (_name, body, code) => {
      const res = await h.raw(body);
      expect(res.error?.code).toBe(code);
      expect(JSON.stringify(res)).not.toMatch(/\bat .*\.ts:\d+/);
    });

    it('refuses prototype-pollution keys before dispatch', () => {
      for (const body of [
        '{"method":"hub_getConfig","params":{"__proto__":{"admin":true}}}',
        '{"method":"hub_getConfig","params":{"constructor":{"prototype":{"admin":true}}}}',
      ]) {
        expect(() => parseRequestBody(body)).toThrowError(
          expect.objectContaining({ code: ERROR_CODES.INVALID_REQUEST }),
        );
      }
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    });

    it('answers 10500 without internals when something breaks', async () => {
      const broken = new Proxy(h.server.deps.db, {
        get: () => {
          throw new Error('connection refused at /secret/path.ts:12');
        },
      });
      const { createContext } = await import('../src/rpc/context');
      const { dispatch } = await import('../src/rpc/dispatcher');
      const res = await dispatch(createContext({ ...h.server.deps, db: broken }), {
        method: 'hub_emailExists',
        params: { email: uniqueEmail() },
        id: 3,
      });
      expect(res).toEqual({
        id: 3,
        error: expect.objectContaining({
          code: ERROR_CODES.INTERNAL_ERROR,
          message: expect.any(String),
        }),
      });
      expect(JSON.stringify(res)).not.toContain('secret');
    });
  });

  describe('throttling', () => {
    it('limits login per e-mail and IP: 10429 type1 with attemptsExpireAt, lifted after the window', async () => {
      const { email, password } = await h.signUp();
      const ip = '203.0.113.20';
      for (let i = 0; i < 10; i++)
        await h.call('hub_login', { email, password: digest('wrong') }, { ip });
      const limited = await h.call('hub_login', { email, password: digest(password) }, { ip });
      expect(limited.error).toMatchObject({ code: ERROR_CODES.RATE_LIMITED, limitType: 'type1' });
      expect(limited.error!.attemptsExpireAt).toBeGreaterThan(h.clock.now());
      expect(limited.error!.attemptsExpireAt).toBeLessThanOrEqual(h.clock.now() + 15 * MINUTE);
      h.clock.advance(15 * MINUTE + 1);
      expect((await h.call('hub_login', { email, password: digest(password) }, { ip })).ok).toBe(
        true,
      );
    });

    it("does not lock the owner out: another IP's wrong passwords leave the right one working from a new IP", async () => {
      const { email, password } = await h.signUp();
      const attacker = '198.51.100.66';
      const guesses = [];
      for (let i = 0; i < 12; i++)
        guesses.push(
          await h.call('hub_login', { email, password: digest(`guess${i}`) }, { ip: attacker }),
        );
      expect(guesses[11]!.error?.code).toBe(ERROR_CODES.RATE_LIMITED);
      const owner = await h.call(
        'hub_login',
        { email, password: digest(password) },
        { ip: '192.0.2.44' },
      );
      expect(owner.ok).toBe(true);
    });

    it('caps one address at 100 attempts an hour across IPs, except where the owner signed in before; a reset lifts the cap', async () => {
      const { email, password } = await h.signUp();
      const home = '192.0.2.80';
      expect(
        (await h.call('hub_login', { email, password: digest(password) }, { ip: home })).ok,
      ).toBe(true);
      // A crowd of IPs, ten guesses each: none past its own limits, 100 in all with the owner's sign-ins.
      let n = 2;
      for (let ip = 1; n < 100; ip++)
        for (let i = 0; i < 10 && n < 100; i++, n++)
          await h.call(
            'hub_login',
            { email, password: digest('guess') },
            { ip: `198.51.100.${ip}` },
          );
      const fresh = await h.call(
        'hub_login',
        { email, password: digest(password) },
        { ip: '192.0.2.81' },
      );
      expect(fresh.error).toMatchObject({ code: ERROR_CODES.RATE_LIMITED, limitType: 'type1' });
      expect(fresh.error!.attemptsExpireAt).toBeLessThanOrEqual(h.clock.now() + 60 * MINUTE);
      // Where the address signed in before, the right password still works; a wrong one still fails.
      expect(
        (await h.call('hub_login', { email, password: digest(password) }, { ip: home })).ok,
      ).toBe(true);
      expect(
        (await h.call('hub_login', { email, password: digest('guess') }, { ip: home })).error?.code,
      ).toBe(ERROR_CODES.BAD_CREDENTIALS);

      // The owner's way in from anywhere else: reset the password by mail, which lifts the cap.
      await h.call('hub_sendResetPasswordMail', { email });
      const code = await codeFromNextMail(email, '/reset-password/checking');
      const next = digest('new password');
      expect(
        (await h.call('hub_passwordReset', { code, password: next, confirmPassword: next })).ok,
      ).toBe(true);
      expect((await h.call('hub_login', { email, password: next }, { ip: '192.0.2.82' })).ok).toBe(
        true,
      );
    });

    it('limits login per IP across e-mails', async () => {
      const ip = '203.0.113.7';
      let last;
      for (let i = 0; i < 31; i++)
        last = await h.call('hub_login', { email: uniqueEmail(), password: digest('x') }, { ip });
      expect(last!.error).toMatchObject({ code: ERROR_CODES.RATE_LIMITED, limitType: 'type1' });
      expect(
        (await h.call('hub_login', { email: uniqueEmail(), password: digest('x') })).error?.code,
      ).toBe(ERROR_CODES.BAD_CREDENTIALS);
    });

    it('limits register per IP (type3), mails per address (type2), emailExists per IP (type3)', async () => {
      const ip = '203.0.113.8';
      const p = { password: digest('x'), confirmPassword: digest('x') };
      const regs = [];
      for (let i = 0; i < 11; i++)
        regs.push(await h.call('hub_register', { email: uniqueEmail(), ...p }, { ip }));
      expect(regs.slice(0, 10).every((r) => r.ok)).toBe(true);
      expect(regs[10]!.error).toMatchObject({ code: ERROR_CODES.RATE_LIMITED, limitType: 'type3' });

      const email = uniqueEmail();
      const mails = [];
      for (let i = 0; i < 6; i++) mails.push(await h.call('hub_sendResetPasswordMail', { email }));
      expect(mails[5]!.error).toMatchObject({ code: ERROR_CODES.RATE_LIMITED, limitType: 'type2' });
      const confirms = [];
      for (let i = 0; i < 6; i++)
        confirms.push(await h.call('hub_sendRegisterConfirmMail', { email }));
      expect(confirms[5]!.error).toMatchObject({
        code: ERROR_CODES.RATE_LIMITED,
        limitType: 'type2',
      });

      const ip2 = '203.0.113.9';
      let exists;
      for (let i = 0; i < 61; i++)
        exists = await h.call('hub_emailExists', { email: uniqueEmail() }, { ip: ip2 });
      expect(exists!.error).toMatchObject({ code: ERROR_CODES.RATE_LIMITED, limitType: 'type3' });
    });

    it('limits the four one-time-code methods per IP together (type3), not other IPs', async () => {
      const ip = '203.0.113.30';
      const code = 'c'.repeat(43);
      const p = { code, password: digest('x'), confirmPassword: digest('x') };
      const calls = [
        () => h.call('hub_checkEmailConfirmCodeStatus', { code }, { ip }),
        () => h.call('hub_emailConfirm', { code }, { ip }),
        () => h.call('hub_passwordResetCodeStatus', { code }, { ip }),
        () => h.call('hub_passwordReset', p, { ip }),
      ];
      const answers = [];
      for (let i = 0; i < 30; i++) answers.push(await calls[i % 4]!());
      expect(answers.every((a) => a.error?.code !== ERROR_CODES.RATE_LIMITED)).toBe(true);
      for (const call of calls) {
        expect((await call()).error).toMatchObject({
          code: ERROR_CODES.RATE_LIMITED,
          limitType: 'type3',
        });
      }
      expect((await h.call('hub_checkEmailConfirmCodeStatus', { code })).result).toEqual({
        status: 'invalid',
        email: null,
      });
      h.clock.advance(15 * MINUTE);
      expect((await calls[0]!()).ok).toBe(true);
    });

    it('limits changePassword per user (type1)', async () => {
      const { token } = await h.signUp();
      const results = [];
      for (let i = 0; i < 6; i++) {
        results.push(
          await h.call(
            'hub_changePassword',
            { oldPassword: digest('wrong'), password: digest('n'), confirmPassword: digest('n') },
            { token },
          ),
        );
      }
      expect(results[4]!.error?.code).toBe(ERROR_CODES.WRONG_PASSWORD);
      expect(results[5]!.error).toMatchObject({
        code: ERROR_CODES.RATE_LIMITED,
        limitType: 'type1',
      });
    });
  });
});
