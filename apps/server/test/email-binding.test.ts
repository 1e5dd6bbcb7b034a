/** E-mail binding for accounts without an address or password (issue 14): the mailed code, its limits; on each database. */
import { randomBytes } from 'node:crypto';
import { createHash } from 'node:crypto';
import { ERROR_CODES } from '@rpc/contract';
import { authChallenges, users } from '@rpc/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPasswordlessUser } from '../src/services/sign-in/create-passwordless-user';
import { openSession } from '../src/services/sign-in/open-session';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, digest, uniqueEmail, type THarness } from './helpers/harness';
import { subjectOf, type TCapturedMail } from './helpers/smtp';

const MINUTE = 60_000;

describe.each(TEST_DATABASES)('e-mail binding on $name', ({ open }) => {
  let h: THarness;
  beforeAll(async () => {
    h = await createHarness(open);
  });
  afterAll(async () => {
    await h?.close();
  });

  async function ok<T>(p: Promise<{ ok: boolean; result?: T; error?: unknown }>): Promise<T> {
    const res = await p;
    if (!res.ok) throw new Error(JSON.stringify(res.error));
    return res.result as T;
  }

  /** A wallet user (no address, no password) with a session, as wallet sign-in makes them. */
  async function passwordless(language: 'en' | 'zh' = 'en') {
    const created = await createPasswordlessUser(
      { ...h.server.deps, ip: '127.0.0.1' },
      {
        nickname: 'wallet user',
        language,
        identity: {
          provider: 'wallet',
          subject: `0x${randomBytes(20).toString('hex')}`,
          email: null,
          displayName: null,
        },
      },
    );
    return { userId: created.userId, token: await signIn(created.userId) };
  }

  /** A wallet sign-in of the user now (by the server's clock): a new session's token. */
  async function signIn(userId: string): Promise<string> {
    const session = await openSession(h.database.db, {
      userId,
      method: 'wallet',
      now: h.clock.now(),
      ip: '127.0.0.1',
      userAgent: 'test',
    });
    return session.token;
  }

  /** The six-digit code standing on its own line in the mail. */
  function codeOf(mail: TCapturedMail): string {
    const m = /^(\d{6})\s*$/m.exec(mail.text);
    if (!m) throw new Error(`no code in mail:\n${mail.text.slice(0, 2000)}`);
    return m[1]!;
  }

  async function mailCode(token: string, email: string): Promise<string> {
    await ok(h.call('hub_sendBindConfirmMail', { email }, { token }));
    return codeOf(await h.smtp.nextMailTo(email));
  }

  /** A six-digit code that is not `code`. */
  const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  const pw = digest('wallet owner password');
  const withPassword = { password: pw, confirmPassword: pw };

  const userRow = async (userId: string) =>
    (await h.database.db.select().from(users).where(eq(users.id, userId)))[0]!;
  const challengesOf = (userId: string) =>
    h.database.db
      .select()
      .from(authChallenges)
      .where(and(eq(authChallenges.userId, userId), eq(authChallenges.kind, 'email_bind')));

  it('hub_noPassword tells a passwordless user from an e-mail user', async () => {
    const w = await passwordless();
    expect(await ok(h.call('hub_noPassword', {}, { token: w.token }))).toEqual({
      isNoPassword: true,
      email: null,
    });
    const e = await h.signUp();
    expect(await ok(h.call('hub_noPassword', {}, { token: e.token }))).toEqual({
      isNoPassword: false,
      email: e.email,
    });
  });

  it('binds an address with the mailed code and a password; the user then signs in with them', async () => {
    const w = await passwordless();
    const email = uniqueEmail('bind');
    expect(await ok(h.call('hub_preBindEmail', { email }, { token: w.token }))).toEqual({
      available: true,
    });
    const sent = await ok(
      h.call('hub_sendBindConfirmMail', { email: email.toUpperCase() }, { token: w.token }),
    );
    expect(sent).toEqual({ sent: true, expiresAt: h.clock.now() + 15 * MINUTE });
    const mail = await h.smtp.nextMailTo(email);
    expect(subjectOf(mail)).toBe('Your code to bind this e-mail address');
    expect(mail.text).toContain('expires in 15 minutes');
    const code = codeOf(mail);

    // Stored: the challenge, with neither the code nor its bare SHA-256.
    const [challenge] = await challengesOf(w.userId);
    expect(challenge).toMatchObject({ purpose: 'bind', payload: { email }, attempts: 0 });
    const sha = (s: string) => createHash('sha256').update(s).digest('hex');
    expect(challenge!.secretHash).not.toContain(code);
    expect([sha(code), sha(challenge!.id + code)]).not.toContain(challenge!.secretHash);

    const bound = await ok(
      h.call('hub_bindEmail', { email, code, ...withPassword }, { token: w.token }),
    );
    expect(bound).toEqual({ email });
    const row = await userRow(w.userId);
    expect(row.email).toBe(email);
    expect(row.mailConfirmedAt?.getTime()).toBe(h.clock.now());
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect((await challengesOf(w.userId))[0]!.usedAt).not.toBeNull();
    expect(await ok(h.call('hub_noPassword', {}, { token: w.token }))).toEqual({
      isNoPassword: false,
      email,
    });

    const login = await ok(h.call('hub_login', { email, password: pw }));
    expect(login.twoFactorRequired).toBe(false);
    expect((await h.call('hub_getUserProfile', {}, { token: login.token })).ok).toBe(true);
    // The code is spent, and the address is no longer available to anyone.
    const again = await h.call(
      'hub_bindEmail',
      { email, code, ...withPassword },
      { token: w.token },
    );
    expect(again.error?.code).toBe(ERROR_CODES.EMAIL_ALREADY_BOUND);
    const other = await passwordless();
    expect(await ok(h.call('hub_preBindEmail', { email }, { token: other.token }))).toEqual({
      available: false,
    });
  });

  it('mails the code in the user’s language', async () => {
    const w = await passwordless('zh');
    const email = uniqueEmail('zh');
    await ok(h.call('hub_sendBindConfirmMail', { email }, { token: w.token }));
    const mail = await h.smtp.nextMailTo(email);
    expect(subjectOf(mail)).toBe('您的邮箱绑定验证码');
    expect(mail.text).toContain('15 分钟内有效');
    expect(codeOf(mail)).toMatch(/^\d{6}$/);
  });

  it('kills the challenge at the fifth wrong code; a new mail starts afresh', async () => {
    const w = await passwordless();
    const email = uniqueEmail('wrong');
    const code = await mailCode(w.token, email);
    for (let i = 0; i < 5; i += 1) {
      const res = await h.call(
        'hub_bindEmail',
        { email, code: otherThan(code), ...withPassword },
        { token: w.token },
      );
      expect(res.error?.code, `try ${i + 1}`).toBe(ERROR_CODES.BIND_CODE_INVALID);
    }
    const late = await h.call(
      'hub_bindEmail',
      { email, code, ...withPassword },
      { token: w.token },
    );
    expect(late.error?.code).toBe(ERROR_CODES.BIND_CODE_INVALID);
    expect((await userRow(w.userId)).email).toBeNull();

    const fresh = await mailCode(w.token, email);
    await ok(h.call('hub_bindEmail', { email, code: fresh, ...withPassword }, { token: w.token }));
  });

  it('keeps only the newest code live, and a code only for the address it was mailed to', async () => {
    const w = await passwordless();
    const email = uniqueEmail('first');
    const first = await mailCode(w.token, email);
    const second = await mailCode(w.token, email);
    const live = (await challengesOf(w.userId)).filter((c) => c.usedAt === null);
    expect(live).toHaveLength(1);
    if (first !== second) {
      const old = await h.call(
        'hub_bindEmail',
        { email, code: first, ...withPassword },
        { token: w.token },
      );
      expect(old.error?.code).toBe(ERROR_CODES.BIND_CODE_INVALID);
    }
    const elsewhere = await h.call(
      'hub_bindEmail',
      { email: uniqueEmail('elsewhere'), code: second, ...withPassword },
      { token: w.token },
    );
    expect(elsewhere.error?.code).toBe(ERROR_CODES.BIND_CODE_INVALID);
    await ok(h.call('hub_bindEmail', { email, code: second, ...withPassword }, { token: w.token }));
  });

  it('refuses a code older than 15 minutes (10218)', async () => {
    const w = await passwordless();
    const email = uniqueEmail('late');
    const code = await mailCode(w.token, email);
    h.clock.advance(16 * MINUTE);
    // Signed in again (the old session is too old to set a first password: 10225, below).
    const token = await signIn(w.userId);
    const res = await h.call('hub_bindEmail', { email, code, ...withPassword }, { token });
    expect(res.error?.code).toBe(ERROR_CODES.BIND_CODE_INVALID);
    expect((await userRow(w.userId)).email).toBeNull();
  });

  it('sets a first password only for a sign-in within 15 minutes (10225), so a stolen old session cannot', async () => {
    const w = await passwordless();
    const email = uniqueEmail('recent');
    const code = await mailCode(w.token, email);
    h.clock.advance(15 * MINUTE + 1);
    const bind = await h.call(
      'hub_bindEmail',
      { email, code, ...withPassword },
      { token: w.token },
    );
    expect(bind.error?.code).toBe(ERROR_CODES.RECENT_SIGN_IN_REQUIRED);
    const row = await userRow(w.userId);
    expect(row.email).toBeNull();
    expect(row.passwordHash).toBeNull();
    const send = await h.call('hub_sendBindConfirmMail', { email }, { token: w.token });
    expect(send.error?.code).toBe(ERROR_CODES.RECENT_SIGN_IN_REQUIRED);
    // Signed in again, the user goes on: a new mail, its code, and the address and password are set.
    const token = await signIn(w.userId);
    const again = await mailCode(token, email);
    await ok(h.call('hub_bindEmail', { email, code: again, ...withPassword }, { token }));
    expect((await userRow(w.userId)).passwordHash).not.toBeNull();
  });

  it('refuses an address another user holds: preBind false, send 10201, bind 10201 when taken meanwhile', async () => {
    const taken = await h.signUp();
    const w = await passwordless();
    expect(
      await ok(h.call('hub_preBindEmail', { email: taken.email }, { token: w.token })),
    ).toEqual({ available: false });
    const send = await h.call(
      'hub_sendBindConfirmMail',
      { email: taken.email },
      { token: w.token },
    );
    expect(send.error?.code).toBe(ERROR_CODES.EMAIL_TAKEN);
    expect(h.smtp.countTo(taken.email)).toBe(1); // the sign-up confirmation only

    const email = uniqueEmail('race');
    const code = await mailCode(w.token, email);
    const rival = await passwordless();
    await h.database.db.update(users).set({ email }).where(eq(users.id, rival.userId));
    const bind = await h.call(
      'hub_bindEmail',
      { email, code, ...withPassword },
      { token: w.token },
    );
    expect(bind.error?.code).toBe(ERROR_CODES.EMAIL_TAKEN);
    expect((await userRow(w.userId)).email).toBeNull();
  });

  it('refuses a user who already has an address (10223), and preBind says their own is not available', async () => {
    const e = await h.signUp();
    const other = uniqueEmail('second');
    const send = await h.call('hub_sendBindConfirmMail', { email: other }, { token: e.token });
    expect(send.error?.code).toBe(ERROR_CODES.EMAIL_ALREADY_BOUND);
    const bind = await h.call(
      'hub_bindEmail',
      { email: other, code: '123456', ...withPassword },
      { token: e.token },
    );
    expect(bind.error?.code).toBe(ERROR_CODES.EMAIL_ALREADY_BOUND);
    expect(await ok(h.call('hub_preBindEmail', { email: e.email }, { token: e.token }))).toEqual({
      available: false,
    });
  });

  it('needs both password digests, equal, when the account has none; the code survives a mistake', async () => {
    const w = await passwordless();
    const email = uniqueEmail('pw');
    const code = await mailCode(w.token, email);
    const missing = await h.call('hub_bindEmail', { email, code }, { token: w.token });
    expect(missing.error?.code).toBe(ERROR_CODES.INVALID_PARAMS);
    expect(missing.error?.details?.map((d) => d.path)).toEqual(['password', 'confirmPassword']);
    const half = await h.call('hub_bindEmail', { email, code, password: pw }, { token: w.token });
    expect(half.error?.code).toBe(ERROR_CODES.INVALID_PARAMS);
    const mismatch = await h.call(
      'hub_bindEmail',
      { email, code, password: pw, confirmPassword: digest('something else') },
      { token: w.token },
    );
    expect(mismatch.error?.code).toBe(ERROR_CODES.PASSWORD_MISMATCH);
    expect((await challengesOf(w.userId))[0]).toMatchObject({ attempts: 0, usedAt: null });
    expect(await userRow(w.userId)).toMatchObject({ email: null, passwordHash: null });
    await ok(h.call('hub_bindEmail', { email, code, ...withPassword }, { token: w.token }));
  });

  it('refuses malformed input with 10004 and writes nothing', async () => {
    const w = await passwordless();
    const email = uniqueEmail('shape');
    const code = await mailCode(w.token, email);
    const bad: Array<[string, Record<string, unknown>]> = [
      ['malformed e-mail', { email: 'not-an-address', code, ...withPassword }],
      ['five-digit code', { email, code: code.slice(1), ...withPassword }],
      ['letters in the code', { email, code: 'abcdef', ...withPassword }],
      ['password not a digest', { email, code, password: 'plain text', confirmPassword: pw }],
      ['upper-case digest', { email, code, password: pw.toUpperCase(), confirmPassword: pw }],
    ];
    for (const [label, params] of bad) {
      const res = await h.call('hub_bindEmail', params as never, { token: w.token });
      expect(res.error?.code, label).toBe(ERROR_CODES.INVALID_PARAMS);
    }
    for (const email of ['', 'a@', '@b.com']) {
      const res = await h.call('hub_sendBindConfirmMail', { email }, { token: w.token });
      expect(res.error?.code, email).toBe(ERROR_CODES.INVALID_PARAMS);
    }
    expect((await challengesOf(w.userId)).map((c) => c.attempts)).toEqual([0]);
    expect(await userRow(w.userId)).toMatchObject({ email: null, passwordHash: null });
  });

  it('needs a session', async () => {
    const res = await h.call('hub_noPassword', {});
    expect(res.error?.code).toBe(ERROR_CODES.SESSION_MISSING);
  });
});
