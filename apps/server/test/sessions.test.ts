/** The session list (issue 14): live sessions of the user, ending one or all others; on each database. */
import { randomUUID } from 'node:crypto';
import { ERROR_CODES, NOTICE_SOCKET_CLOSE, NOTICE_SOCKET_PATH } from '@rpc/contract';
import { sessions } from '@rpc/db';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { sha256Hex } from '../src/lib/secrets';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, digest, type THarness } from './helpers/harness';

describe.each(TEST_DATABASES)('sessions on $name', ({ open }) => {
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

  async function login(me: { email: string; password: string }, ip = '192.0.2.7') {
    h.clock.advance(1000); // distinct creation times, so "newest first" is observable
    return ok(h.call('hub_login', { email: me.email, password: digest(me.password) }, { ip }));
  }

  const profileCode = async (token: string) =>
    (await h.call('hub_getUserProfile', {}, { token })).error?.code;

  it('lists the live sessions newest first, the current one marked', async () => {
    const me = await h.signUp();
    const second = await login(me, '198.51.100.9');
    const { list } = await ok(h.call('hub_getSessions', {}, { token: second.token }));
    expect(list).toHaveLength(2);
    expect(list.map((s) => s.current)).toEqual([true, false]);
    expect(list[0]).toMatchObject({
      method: 'password',
      ip: '198.51.100.9',
      expiresAt: second.expiresAt,
    });
    expect(list[0]!.createdAt).toBeGreaterThan(list[1]!.createdAt);
    // From the first session's side, the flag moves.
    const fromFirst = await ok(h.call('hub_getSessions', {}, { token: me.token }));
    expect(fromFirst.list.map((s) => s.current)).toEqual([false, true]);
  });

  it('leaves out ended and expired sessions', async () => {
    const me = await h.signUp();
    const ended = await login(me);
    await ok(h.call('hub_logout', {}, { token: ended.token }));
    const current = await login(me);
    await h.database.db
      .update(sessions)
      .set({ expiresAt: new Date(h.clock.now() - 1) })
      .where(eq(sessions.tokenHash, sha256Hex(me.token)));
    const { list } = await ok(h.call('hub_getSessions', {}, { token: current.token }));
    expect(list).toHaveLength(1);
    expect(list[0]!.current).toBe(true);
  });

  it('ends one session: its token answers 10103 and its notice socket closes', async () => {
    const me = await h.signUp();
    const other = await login(me);
    const ws = new WebSocket(
      `${url.replace(/^http/, 'ws')}${NOTICE_SOCKET_PATH}?authorization=${me.token}`,
    );
    ws.on('error', () => {});
    const closed = new Promise<number>((resolve) => ws.once('close', resolve));
    await new Promise<void>((resolve) => ws.once('open', () => resolve()));
    // The socket is registered once its token is resolved; wait for that before ending the session.
    await new Promise((r) => setTimeout(r, 200));

    const { list } = await ok(h.call('hub_getSessions', {}, { token: other.token }));
    const target = list.find((s) => !s.current)!;
    await ok(h.call('hub_revokeSession', { sessionId: target.id }, { token: other.token }));
    expect(await profileCode(me.token)).toBe(ERROR_CODES.SESSION_REVOKED);
    expect(await closed).toBe(NOTICE_SOCKET_CLOSE.SESSION_ENDED);
    expect(await profileCode(other.token)).toBeUndefined();
    // Ended already: a 50404 like any id that is not a live session of the user.
    const twice = await h.call(
      'hub_revokeSession',
      { sessionId: target.id },
      { token: other.token },
    );
    expect(twice.error?.code).toBe(ERROR_CODES.NOT_FOUND);
  });

  it('refuses another user’s session id (50404), which keeps working', async () => {
    const me = await h.signUp();
    const stranger = await h.signUp();
    const { list } = await ok(h.call('hub_getSessions', {}, { token: stranger.token }));
    for (const sessionId of [list[0]!.id, randomUUID()]) {
      const res = await h.call('hub_revokeSession', { sessionId }, { token: me.token });
      expect(res.error?.code).toBe(ERROR_CODES.NOT_FOUND);
    }
    expect(await profileCode(stranger.token)).toBeUndefined();
    const bad = await h.call('hub_revokeSession', { sessionId: 'nope' }, { token: me.token });
    expect(bad.error?.code).toBe(ERROR_CODES.INVALID_PARAMS);
  });

  it('ends every other session, pending sign-ins included, and answers how many', async () => {
    const me = await h.signUp();
    const stranger = await h.signUp();
    // Two-factor sign-in first (turning it on ends the other sessions by itself), so that a sign-in can wait for
    // its code: that one is ended too.
    const { secret } = await ok(h.call('hub_startTwoFactorSetup', {}, { token: me.token }));
    const codeAt = (timestamp: number) =>
      TOTP.generate({ secret: Secret.fromBase32(secret), timestamp });
    await ok(
      h.call(
        'hub_enableTwoFactor',
        { code: codeAt(h.clock.now()), password: digest(me.password) },
        { token: me.token },
      ),
    );
    /** A full sign-in: the password, then the next time step's code (a step is accepted once). */
    const fullLogin = async () => {
      const first = await login(me);
      h.clock.advance(30_000);
      const params = { code: codeAt(h.clock.now()) };
      return ok(h.call('hub_verifyTwoFactorLogin', params, { token: first.token }));
    };
    const b = await fullLogin();
    const c = await fullLogin();
    h.clock.advance(30_000);
    const code = codeAt(h.clock.now());
    const pending = await login(me);
    expect(pending.twoFactorRequired).toBe(true);
    const listed = await ok(h.call('hub_getSessions', {}, { token: c.token }));
    expect(listed.list).toHaveLength(3); // the pending sign-in is not a session yet

    const res = await ok(h.call('hub_revokeOtherSessions', {}, { token: c.token }));
    expect(res).toEqual({ revoked: 3 });
    expect(await profileCode(me.token)).toBe(ERROR_CODES.SESSION_REVOKED);
    expect(await profileCode(b.token)).toBe(ERROR_CODES.SESSION_REVOKED);
    const late = await h.call('hub_verifyTwoFactorLogin', { code }, { token: pending.token });
    expect(late.error?.code).toBe(ERROR_CODES.SESSION_REVOKED);
    expect(await profileCode(c.token)).toBeUndefined();
    expect(await profileCode(stranger.token)).toBeUndefined();
    const after = await ok(h.call('hub_getSessions', {}, { token: c.token }));
    expect(after.list.map((s) => s.current)).toEqual([true]);
    expect(await ok(h.call('hub_revokeOtherSessions', {}, { token: c.token }))).toEqual({
      revoked: 0,
    });
  });
});
