/** Two-factor sign-in (TOTP and backup codes, issue 14): setup, the pending sign-in, replay, gates; on each database. */
import { createHash, randomBytes } from 'node:crypto';
import { ERROR_CODES, NOTICE_SOCKET_CLOSE, NOTICE_SOCKET_PATH } from '@rpc/contract';
import { sessions, twoFactorBackupCodes, users } from '@rpc/db';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createPasswordlessUser } from '../src/services/sign-in/create-passwordless-user';
import { openSession } from '../src/services/sign-in/open-session';
import { RECENT_SIGN_IN_MS } from '../src/services/sign-in/two-factor';
import { DEFAULT_THROTTLE_RULES } from '../src/throttle/rules';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, digest, type THarness } from './helpers/harness';
import { linkOf } from './helpers/smtp';

const STEP_MS = 30_000;
const BACKUP_CODE_SHAPE = /^[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}$/;
/** Never a backup code (u is not in Crockford's alphabet) and, being no six digits, never a TOTP code. */
const WRONG_BACKUP = 'uuuu-uuuu';

describe.each(TEST_DATABASES)('two-factor sign-in on $name', ({ open }) => {
  let h: THarness;
  let url: string;
  beforeAll(async () => {
    h = await createHarness(open);
    url = await h.server.start();
  });
  afterAll(async () => {
    await h?.close();
  });

  async function ok<T>(p: Promise<{ ok: boolean; result?: T; error?: unknown }>): Promise<T> {
    const res = await p;
    if (!res.ok) throw new Error(JSON.stringify(res.error));
    return res.result as T;
  }

  async function user() {
    const s = await h.signUp();
    const [u] = await h.database.db.select().from(users).where(eq(users.email, s.email));
    return { ...s, userId: u!.id };
  }
  type TUser = Awaited<ReturnType<typeof user>>;

  /** The code an authenticator app shows now (by the server's clock). */
  const codeNow = (secret: string) =>
    TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: h.clock.now() });
  /** The code of the next time step: a step is accepted once, so every further use waits for a new one. */
  const nextCode = (secret: string) => {
    h.clock.advance(STEP_MS);
    return codeNow(secret);
  };
  /** Six digits matching no step the server accepts now (±1 step). */
  const wrongCode = (secret: string) => {
    const near = [-STEP_MS, 0, STEP_MS].map((d) =>
      TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: h.clock.now() + d }),
    );
    for (let n = 0; ; n += 1) {
      const candidate = String((Number(near[1]) + 1 + n) % 1_000_000).padStart(6, '0');
      if (!near.includes(candidate)) return candidate;
    }
  };

  async function withTwoFactor(u?: TUser) {
    const me = u ?? (await user());
    const { secret } = await ok(h.call('hub_startTwoFactorSetup', {}, { token: me.token }));
    const { backupCodes } = await ok(
      h.call(
        'hub_enableTwoFactor',
        { code: codeNow(secret), password: digest(me.password) },
        { token: me.token },
      ),
    );
    return { ...me, secret, backupCodes };
  }
  type TTwoFactorUser = Awaited<ReturnType<typeof withTwoFactor>>;

  const login = (me: { email: string; password: string }) =>
    ok(h.call('hub_login', { email: me.email, password: digest(me.password) }));

  /** Signs in through both steps; answers the full token. */
  async function fullLogin(me: TTwoFactorUser): Promise<string> {
    const pending = await login(me);
    const done = await ok(
      h.call('hub_verifyTwoFactorLogin', { code: nextCode(me.secret) }, { token: pending.token }),
    );
    return done.token;
  }

  /** A wallet sign-in of the user, now by the server's clock. */
  const openFreshSession = async (userId: string) =>
    (
      await openSession(h.database.db, {
        userId,
        method: 'wallet',
        now: h.clock.now(),
        ip: '127.0.0.1',
        userAgent: 'test',
      })
    ).token;

  const userRow = async (userId: string) =>
    (await h.database.db.select().from(users).where(eq(users.id, userId)))[0]!;

  describe('setup', () => {
    it('offers a secret and otpauth URI without changing anything, and keeps it sealed', async () => {
      const me = await user();
      const setup = await ok(h.call('hub_startTwoFactorSetup', {}, { token: me.token }));
      expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/); // 20 bytes in base32
      const uri = new URL(setup.otpauthUrl);
      expect(uri.protocol).toBe('otpauth:');
      expect(uri.host).toBe('totp');
      expect(decodeURIComponent(uri.pathname)).toBe(`/RPC Console:${me.email}`);
      expect(uri.searchParams.get('issuer')).toBe('RPC Console');
      expect(uri.searchParams.get('secret')).toBe(setup.secret);
      const row = await userRow(me.userId);
      expect(row.totpPendingSealed).toBeTruthy();
      expect(row.totpPendingSealed).not.toContain(setup.secret);
      expect(row.totpSecretSealed).toBeNull();
      expect(row.totpEnabledAt).toBeNull();
      expect(await ok(h.call('hub_getTwoFactorStatus', {}, { token: me.token }))).toEqual({
        enabled: false,
        enabledAt: null,
        backupCodesLeft: 0,
      });
      // Still an ordinary sign-in.
      expect((await login(me)).twoFactorRequired).toBe(false);
    });

    it('turns on with a right code and answers 10 backup codes, stored only as keyed hashes', async () => {
      const me = await withTwoFactor();
      expect(me.backupCodes).toHaveLength(10);
      expect(new Set(me.backupCodes).size).toBe(10);
      for (const code of me.backupCodes) expect(code).toMatch(BACKUP_CODE_SHAPE);
      const status = await ok(h.call('hub_getTwoFactorStatus', {}, { token: me.token }));
      expect(status).toEqual({ enabled: true, enabledAt: h.clock.now(), backupCodesLeft: 10 });
      const row = await userRow(me.userId);
      expect(row.totpPendingSealed).toBeNull();
      expect(row.totpSecretSealed).not.toContain(me.secret);
      const stored = await h.database.db
        .select()
        .from(twoFactorBackupCodes)
        .where(eq(twoFactorBackupCodes.userId, me.userId));
      const sha = (s: string) => createHash('sha256').update(s).digest('hex');
      const hashes = stored.map((r) => r.codeHash);
      for (const code of me.backupCodes) {
        expect(hashes).not.toContain(code);
        expect(hashes).not.toContain(sha(code));
        expect(hashes).not.toContain(sha(code.replace('-', '')));
      }
      // The session that turned it on goes on working.
      expect((await h.call('hub_getUserProfile', {}, { token: me.token })).ok).toBe(true);
    });

    it('refuses a wrong code (10220), no setup (10222) and a second enable (10221)', async () => {
      const me = await user();
      const none = await h.call('hub_enableTwoFactor', { code: '123456' }, { token: me.token });
      expect(none.error?.code).toBe(ERROR_CODES.TWO_FACTOR_NOT_SET_UP);
      const { secret } = await ok(h.call('hub_startTwoFactorSetup', {}, { token: me.token }));
      const wrong = await h.call(
        'hub_enableTwoFactor',
        { code: wrongCode(secret), password: digest(me.password) },
        { token: me.token },
      );
      expect(wrong.error?.code).toBe(ERROR_CODES.TWO_FACTOR_INVALID);
      expect((await userRow(me.userId)).totpEnabledAt).toBeNull();
      const password = digest(me.password);
      await ok(
        h.call('hub_enableTwoFactor', { code: codeNow(secret), password }, { token: me.token }),
      );
      const again = await h.call(
        'hub_enableTwoFactor',
        { code: nextCode(secret), password },
        { token: me.token },
      );
      expect(again.error?.code).toBe(ERROR_CODES.TWO_FACTOR_ALREADY_ON);
      const restart = await h.call('hub_startTwoFactorSetup', {}, { token: me.token });
      expect(restart.error?.code).toBe(ERROR_CODES.TWO_FACTOR_ALREADY_ON);
    });

    it('needs the current password (10224 without, 10207 wrong), so a stolen token alone cannot turn it on', async () => {
      const me = await user();
      const { secret } = await ok(h.call('hub_startTwoFactorSetup', {}, { token: me.token }));
      const code = codeNow(secret);
      const without = await h.call('hub_enableTwoFactor', { code }, { token: me.token });
      expect(without.error?.code).toBe(ERROR_CODES.PASSWORD_REQUIRED);
      const wrong = await h.call(
        'hub_enableTwoFactor',
        { code, password: digest('not the password') },
        { token: me.token },
      );
      expect(wrong.error?.code).toBe(ERROR_CODES.WRONG_PASSWORD);
      // Nothing changed and nothing was spent: the same code and the offered secret still turn it on.
      const row = await userRow(me.userId);
      expect(row.totpEnabledAt).toBeNull();
      expect(row.totpPendingSealed).toBeTruthy();
      expect(row.totpLastStep).toBeNull();
      await ok(
        h.call('hub_enableTwoFactor', { code, password: digest(me.password) }, { token: me.token }),
      );
      expect((await userRow(me.userId)).totpEnabledAt).not.toBeNull();
      // Not a plain password, not a malformed digest: the shape is refused before anything is looked at.
      for (const password of [me.password, 'A'.repeat(32), '', 'x'.repeat(10_000)]) {
        const res = await h.call('hub_enableTwoFactor', { code, password }, { token: me.token });
        expect(res.error?.code, password.slice(0, 20)).toBe(ERROR_CODES.INVALID_PARAMS);
      }
    });

    it('ends every other session of the user, pending sign-ins included, and says how many', async () => {
      const me = await user();
      const other = await login(me);
      const stranger = await user();
      const { secret } = await ok(h.call('hub_startTwoFactorSetup', {}, { token: me.token }));
      const res = await ok(
        h.call(
          'hub_enableTwoFactor',
          { code: codeNow(secret), password: digest(me.password) },
          { token: me.token },
        ),
      );
      expect(res.endedSessions).toBe(1);
      const gone = await h.call('hub_getUserProfile', {}, { token: other.token });
      expect(gone.error?.code).toBe(ERROR_CODES.SESSION_REVOKED);
      expect((await h.call('hub_getUserProfile', {}, { token: me.token })).ok).toBe(true);
      expect((await h.call('hub_getUserProfile', {}, { token: stranger.token })).ok).toBe(true);
    });

    it('asks a user without a password for a sign-in within 15 minutes (10225) instead', async () => {
      // A wallet user, as wallet sign-in makes them: no address, no password to ask for.
      const { userId } = await createPasswordlessUser(
        { ...h.server.deps, ip: '127.0.0.1' },
        {
          nickname: 'wallet user',
          language: 'en',
          identity: {
            provider: 'wallet',
            subject: `0x${randomBytes(20).toString('hex')}`,
            email: null,
            displayName: null,
          },
        },
      );
      const me = { userId, token: await openFreshSession(userId) };
      h.clock.advance(RECENT_SIGN_IN_MS + 1);
      const late = await h.call('hub_startTwoFactorSetup', {}, { token: me.token });
      expect(late.error?.code).toBe(ERROR_CODES.RECENT_SIGN_IN_REQUIRED);
      expect((await userRow(me.userId)).totpPendingSealed).toBeNull();

      // Set up in time, turned on too late: refused, nothing changed.
      const fresh = await openFreshSession(me.userId);
      const { secret } = await ok(h.call('hub_startTwoFactorSetup', {}, { token: fresh }));
      h.clock.advance(RECENT_SIGN_IN_MS + 1);
      const tooLate = await h.call(
        'hub_enableTwoFactor',
        { code: codeNow(secret) },
        { token: fresh },
      );
      expect(tooLate.error?.code).toBe(ERROR_CODES.RECENT_SIGN_IN_REQUIRED);
      expect((await userRow(me.userId)).totpEnabledAt).toBeNull();

      // Within the window no password is asked.
      const again = await openFreshSession(me.userId);
      h.clock.advance(RECENT_SIGN_IN_MS - 60_000);
      await ok(h.call('hub_enableTwoFactor', { code: codeNow(secret) }, { token: again }));
      expect((await userRow(me.userId)).totpEnabledAt).not.toBeNull();
    });

    it('refuses codes of the wrong shape with 10004', async () => {
      const me = await withTwoFactor();
      const pending = await login(me);
      for (const code of ['12345', '1234567', 'abcd', 'abcd-efgh-ijkl', '12 34 56']) {
        const res = await h.call('hub_verifyTwoFactorLogin', { code }, { token: pending.token });
        expect(res.error?.code, code).toBe(ERROR_CODES.INVALID_PARAMS);
      }
      // Shape errors never reach the attempt counter.
      const rows = await h.database.db
        .select()
        .from(sessions)
        .where(eq(sessions.userId, me.userId));
      expect(rows.every((s) => s.twoFactorAttempts === 0)).toBe(true);
    });
  });

  describe('signing in', () => {
    it('answers a pending token good only for hub_verifyTwoFactorLogin and hub_logout', async () => {
      const me = await withTwoFactor();
      const pending = await login(me);
      expect(pending.twoFactorRequired).toBe(true);
      expect(pending.expiresAt).toBe(h.clock.now() + 10 * 60_000);
      for (const method of [
        'hub_getUserProfile',
        'hub_getSessions',
        'hub_getTwoFactorStatus',
      ] as const) {
        const res = await h.call(method, {} as never, { token: pending.token });
        expect(res.error?.code, method).toBe(ERROR_CODES.TWO_FACTOR_PENDING);
      }
      // The notice socket refuses it too.
      const ws = new WebSocket(
        `${url.replace(/^http/, 'ws')}${NOTICE_SOCKET_PATH}?authorization=${pending.token}`,
      );
      ws.on('error', () => {});
      const closed = await new Promise<number>((resolve) => ws.once('close', resolve));
      expect(closed).toBe(NOTICE_SOCKET_CLOSE.UNAUTHORIZED);

      const done = await ok(
        h.call('hub_verifyTwoFactorLogin', { code: nextCode(me.secret) }, { token: pending.token }),
      );
      expect(done.twoFactorRequired).toBe(false);
      expect(done.token).not.toBe(pending.token);
      expect(done.expiresAt).toBe(h.clock.now() + 30 * 86_400_000);
      const profile = await h.call('hub_getUserProfile', {}, { token: done.token });
      expect(profile.ok).toBe(true);
      const old = await h.call('hub_getUserProfile', {}, { token: pending.token });
      expect(old.error?.code).toBe(ERROR_CODES.SESSION_REVOKED);
      const reuse = await h.call(
        'hub_verifyTwoFactorLogin',
        { code: nextCode(me.secret) },
        { token: pending.token },
      );
      expect(reuse.error?.code).toBe(ERROR_CODES.SESSION_REVOKED);
      const list = await ok(h.call('hub_getSessions', {}, { token: done.token }));
      expect(list.list.find((s) => s.current)).toMatchObject({ method: 'password' });
    });

    it('lets hub_logout end a pending sign-in', async () => {
      const me = await withTwoFactor();
      const pending = await login(me);
      await ok(h.call('hub_logout', {}, { token: pending.token }));
      const after = await h.call(
        'hub_verifyTwoFactorLogin',
        { code: nextCode(me.secret) },
        { token: pending.token },
      );
      expect(after.error?.code).toBe(ERROR_CODES.SESSION_REVOKED);
    });

    it('never accepts one TOTP code twice (replay), even for another sign-in', async () => {
      const me = await withTwoFactor();
      const code = nextCode(me.secret);
      const first = await login(me);
      await ok(h.call('hub_verifyTwoFactorLogin', { code }, { token: first.token }));
      const second = await login(me);
      const replay = await h.call('hub_verifyTwoFactorLogin', { code }, { token: second.token });
      expect(replay.error?.code).toBe(ERROR_CODES.TWO_FACTOR_INVALID);
      // The step before the one used is within the ±1 window, yet refused: steps only go forward.
      const older = TOTP.generate({
        secret: Secret.fromBase32(me.secret),
        timestamp: h.clock.now() - STEP_MS,
      });
      const back = await h.call(
        'hub_verifyTwoFactorLogin',
        { code: older },
        { token: second.token },
      );
      expect(back.error?.code).toBe(ERROR_CODES.TWO_FACTOR_INVALID);
      await ok(
        h.call('hub_verifyTwoFactorLogin', { code: nextCode(me.secret) }, { token: second.token }),
      );
    });

    it('lets only one of two parallel sign-ins use the same code', async () => {
      const me = await withTwoFactor();
      const [a, b] = [await login(me), await login(me)];
      const code = nextCode(me.secret);
      const results = await Promise.all(
        [a, b].map((p) => h.call('hub_verifyTwoFactorLogin', { code }, { token: p.token })),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.find((r) => !r.ok)?.error?.code).toBe(ERROR_CODES.TWO_FACTOR_INVALID);
    });

    it('takes each backup code once, in any case and with or without the dash', async () => {
      const me = await withTwoFactor();
      const [code] = me.backupCodes;
      const first = await login(me);
      const typed = code!.replace('-', '').toUpperCase();
      const done = await ok(
        h.call('hub_verifyTwoFactorLogin', { code: typed }, { token: first.token }),
      );
      expect(done.twoFactorRequired).toBe(false);
      const second = await login(me);
      const again = await h.call(
        'hub_verifyTwoFactorLogin',
        { code: code! },
        { token: second.token },
      );
      expect(again.error?.code).toBe(ERROR_CODES.TWO_FACTOR_INVALID);
      const status = await ok(h.call('hub_getTwoFactorStatus', {}, { token: done.token }));
      expect(status.backupCodesLeft).toBe(9);
    });

    it('ends the pending session at the fifth wrong code (then 10103)', async () => {
      const me = await withTwoFactor();
      const pending = await login(me);
      for (let i = 0; i < 5; i += 1) {
        const code = i % 2 === 0 ? wrongCode(me.secret) : WRONG_BACKUP;
        const res = await h.call('hub_verifyTwoFactorLogin', { code }, { token: pending.token });
        expect(res.error?.code, `try ${i + 1}`).toBe(ERROR_CODES.TWO_FACTOR_INVALID);
      }
      const right = await h.call(
        'hub_verifyTwoFactorLogin',
        { code: nextCode(me.secret) },
        { token: pending.token },
      );
      expect(right.error?.code).toBe(ERROR_CODES.SESSION_REVOKED);
      // A fresh sign-in starts again.
      const fresh = await login(me);
      await ok(
        h.call('hub_verifyTwoFactorLogin', { code: nextCode(me.secret) }, { token: fresh.token }),
      );
    });

    it('expires a pending sign-in after 10 minutes', async () => {
      const me = await withTwoFactor();
      const pending = await login(me);
      h.clock.advance(10 * 60_000);
      const res = await h.call(
        'hub_verifyTwoFactorLogin',
        { code: codeNow(me.secret) },
        { token: pending.token },
      );
      expect(res.error?.code).toBe(ERROR_CODES.SESSION_EXPIRED);
    });

    it('answers a full session that calls hub_verifyTwoFactorLogin with 50409', async () => {
      const me = await withTwoFactor();
      const res = await h.call(
        'hub_verifyTwoFactorLogin',
        { code: nextCode(me.secret) },
        { token: me.token },
      );
      expect(res.error?.code).toBe(ERROR_CODES.CONFLICT);
    });

    it('bounds guesses per user across sessions (10429 past the limit)', async () => {
      const me = await withTwoFactor(); // the enable counted once
      const limit = DEFAULT_THROTTLE_RULES.twoFactor.perEmail!.limit;
      let refused = 0;
      for (let i = 1; i < limit; i += 1) {
        // A new pending sign-in every 4 tries: its own 5-try limit is not what stops this.
        const pending = await login(me);
        const res = await h.call(
          'hub_verifyTwoFactorLogin',
          { code: WRONG_BACKUP },
          { token: pending.token },
        );
        if (res.error?.code === ERROR_CODES.TWO_FACTOR_INVALID) refused += 1;
      }
      expect(refused).toBe(limit - 1);
      const pending = await login(me);
      const over = await h.call(
        'hub_verifyTwoFactorLogin',
        { code: nextCode(me.secret) },
        { token: pending.token },
      );
      expect(over.error).toMatchObject({ code: ERROR_CODES.RATE_LIMITED, limitType: 'type1' });
    });

    it('a password reset ends pending sign-ins too', async () => {
      const me = await withTwoFactor();
      const pending = await login(me);
      await ok(h.call('hub_sendResetPasswordMail', { email: me.email }));
      const code = linkOf(await h.smtp.nextMailTo(me.email)).searchParams.get('code')!;
      await ok(
        h.call('hub_passwordReset', {
          code,
          password: digest('brand new pass'),
          confirmPassword: digest('brand new pass'),
        }),
      );
      const after = await h.call(
        'hub_verifyTwoFactorLogin',
        { code: nextCode(me.secret) },
        { token: pending.token },
      );
      expect(after.error?.code).toBe(ERROR_CODES.SESSION_REVOKED);
    });
  });

  describe('gates', () => {
    it('hub_changePassword: no code 10219, wrong 10220, right changes it', async () => {
      const me = await withTwoFactor();
      const token = await fullLogin(me);
      const base = {
        oldPassword: digest(me.password),
        password: digest('a different one'),
        confirmPassword: digest('a different one'),
      };
      const missing = await h.call('hub_changePassword', base, { token });
      expect(missing.error?.code).toBe(ERROR_CODES.TWO_FACTOR_REQUIRED);
      const wrong = await h.call(
        'hub_changePassword',
        { ...base, twoFactorCode: WRONG_BACKUP },
        { token },
      );
      expect(wrong.error?.code).toBe(ERROR_CODES.TWO_FACTOR_INVALID);
      // A wrong old password is said before the code is spent.
      const code = nextCode(me.secret);
      const badOld = await h.call(
        'hub_changePassword',
        { ...base, oldPassword: digest('not it'), twoFactorCode: code },
        { token },
      );
      expect(badOld.error?.code).toBe(ERROR_CODES.WRONG_PASSWORD);
      const before = (await userRow(me.userId)).passwordHash;
      await ok(h.call('hub_changePassword', { ...base, twoFactorCode: code }, { token }));
      expect((await userRow(me.userId)).passwordHash).not.toBe(before);
      const relogin = await login({ email: me.email, password: 'a different one' });
      expect(relogin.twoFactorRequired).toBe(true);
    });

    it('hub_changePassword leaves the password alone on a wrong code', async () => {
      const me = await withTwoFactor();
      const before = (await userRow(me.userId)).passwordHash;
      const res = await h.call(
        'hub_changePassword',
        {
          oldPassword: digest(me.password),
          password: digest('x'.repeat(12)),
          confirmPassword: digest('x'.repeat(12)),
          twoFactorCode: wrongCode(me.secret),
        },
        { token: me.token },
      );
      expect(res.error?.code).toBe(ERROR_CODES.TWO_FACTOR_INVALID);
      expect((await userRow(me.userId)).passwordHash).toBe(before);
    });

    it('hub_deleteApiKey: the caller’s own code, for personal keys and acting as a team admin', async () => {
      const owner = await user();
      const admin = await withTwoFactor();
      const team = await ok(
        h.call('hub_createTeam', { teamName: 'Two-factor team' }, { token: owner.token }),
      );
      const invite = await ok(
        h.call(
          'hub_addMember',
          { teamId: team.teamId, email: admin.email, role: 'admin' },
          { token: owner.token },
        ),
      );
      await ok(h.call('hub_approveInvite', { inviteId: invite.inviteId }, { token: admin.token }));
      const teamOpts = { token: admin.token, teamId: team.teamId };
      const k1 = await ok(h.call('hub_generateApiKey', { name: 'team one' }, teamOpts));
      const k2 = await ok(h.call('hub_generateApiKey', { name: 'team two' }, teamOpts));

      const missing = await h.call('hub_deleteApiKey', { keyId: k1.keyId }, teamOpts);
      expect(missing.error?.code).toBe(ERROR_CODES.TWO_FACTOR_REQUIRED);
      const wrong = await h.call(
        'hub_deleteApiKey',
        { keyId: k1.keyId, twoFactorCode: wrongCode(admin.secret) },
        teamOpts,
      );
      expect(wrong.error?.code).toBe(ERROR_CODES.TWO_FACTOR_INVALID);
      const keys = await ok(h.call('hub_getApiKeys', { page: 1, perPage: 10 }, teamOpts));
      expect(keys.list.map((k) => k.keyId).sort()).toEqual([k1.keyId, k2.keyId].sort());
      await ok(
        h.call(
          'hub_deleteApiKey',
          { keyId: k1.keyId, twoFactorCode: nextCode(admin.secret) },
          teamOpts,
        ),
      );
      // The owner has no two-factor sign-in: no code asked of them on the same team.
      await ok(
        h.call(
          'hub_deleteApiKey',
          { keyId: k2.keyId },
          { token: owner.token, teamId: team.teamId },
        ),
      );

      const mine = await ok(h.call('hub_generateApiKey', { name: 'mine' }, { token: admin.token }));
      const own = await h.call('hub_deleteApiKey', { keyId: mine.keyId }, { token: admin.token });
      expect(own.error?.code).toBe(ERROR_CODES.TWO_FACTOR_REQUIRED);
      await ok(
        h.call(
          'hub_deleteApiKey',
          { keyId: mine.keyId, twoFactorCode: admin.backupCodes[0]! },
          { token: admin.token },
        ),
      );
    });
  });

  describe('managing', () => {
    it('turns off with a backup code: secret, step and backup codes all go', async () => {
      const me = await withTwoFactor();
      const wrong = await h.call(
        'hub_disableTwoFactor',
        { code: WRONG_BACKUP },
        { token: me.token },
      );
      expect(wrong.error?.code).toBe(ERROR_CODES.TWO_FACTOR_INVALID);
      await ok(h.call('hub_disableTwoFactor', { code: me.backupCodes[3]! }, { token: me.token }));
      const row = await userRow(me.userId);
      expect(row).toMatchObject({
        totpSecretSealed: null,
        totpPendingSealed: null,
        totpEnabledAt: null,
        totpLastStep: null,
      });
      const left = await h.database.db
        .select()
        .from(twoFactorBackupCodes)
        .where(eq(twoFactorBackupCodes.userId, me.userId));
      expect(left).toHaveLength(0);
      expect((await login(me)).twoFactorRequired).toBe(false);
      const twice = await h.call(
        'hub_disableTwoFactor',
        { code: me.backupCodes[4]! },
        { token: me.token },
      );
      expect(twice.error?.code).toBe(ERROR_CODES.TWO_FACTOR_NOT_SET_UP);
      // Changing the password needs no code any more.
      await ok(
        h.call(
          'hub_changePassword',
          {
            oldPassword: digest(me.password),
            password: digest('next password'),
            confirmPassword: digest('next password'),
          },
          { token: me.token },
        ),
      );
    });

    it('regenerates backup codes with a current code; the old ones stop working', async () => {
      const me = await withTwoFactor();
      const { backupCodes } = await ok(
        h.call('hub_regenerateBackupCodes', { code: nextCode(me.secret) }, { token: me.token }),
      );
      expect(backupCodes).toHaveLength(10);
      expect(backupCodes.filter((c) => me.backupCodes.includes(c))).toEqual([]);
      const old = await h.call(
        'hub_disableTwoFactor',
        { code: me.backupCodes[0]! },
        { token: me.token },
      );
      expect(old.error?.code).toBe(ERROR_CODES.TWO_FACTOR_INVALID);
      await ok(h.call('hub_disableTwoFactor', { code: backupCodes[0]! }, { token: me.token }));
    });

    it('refuses to regenerate without two-factor sign-in (10222)', async () => {
      const me = await user();
      const res = await h.call(
        'hub_regenerateBackupCodes',
        { code: '123456' },
        { token: me.token },
      );
      expect(res.error?.code).toBe(ERROR_CODES.TWO_FACTOR_NOT_SET_UP);
    });
  });
});
