/**
 * Third-party sign-in (issue 14) against a real OpenID Connect provider (oidc-provider, started here): sign-up and
 * sign-in through it, state and PKCE refusals, binding and unbinding; on each database.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERROR_CODES, type TMethodName, type TParamsIn } from '@rpc/contract';
import { authChallenges, sessions, userIdentities, users } from '@rpc/db';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOauthClient } from '../src/services/sign-in/oauth-client';
import type { TOauthProviderEnv } from '../src/services/sign-in/oauth-env';
import { createOauthSettings } from '../src/services/sign-in/oauth-settings';
import { RECENT_SIGN_IN_MS } from '../src/services/sign-in/two-factor';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, digest, type TCallResult, type THarness } from './helpers/harness';
import { freePort } from './helpers/net';
import { startOidcProvider, type TLocalOidcProvider } from './helpers/oidc-provider';

const PUBLIC_URL = 'http://console.test';
const REDIRECT_URIS = [`${PUBLIC_URL}/auth/callback`, `${PUBLIC_URL}/bind/callback`];
const MINUTE = 60_000;

function localProvider(idp: TLocalOidcProvider, id = 'local'): TOauthProviderEnv {
  return {
    id,
    name: `IdP ${id}`,
    kind: 'oidc',
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    issuer: idp.issuer,
    allowInsecureRequests: true,
  };
}

function newSubject(): string {
  return `u-${randomBytes(5).toString('hex')}`;
}

function ok<N extends TMethodName>(res: TCallResult<N>) {
  if (!res.ok) throw new Error(JSON.stringify(res.error));
  return res.result;
}

function refused<N extends TMethodName>(res: TCallResult<N>): number {
  if (res.ok) throw new Error(`expected a refusal, got ${JSON.stringify(res.result)}`);
  return res.error.code;
}

describe.each(TEST_DATABASES)('third-party sign-in on $name', ({ open }) => {
  let idp: TLocalOidcProvider;
  let h: THarness;
  beforeAll(async () => {
    idp = await startOidcProvider({ redirectUris: REDIRECT_URIS });
    // Two ids on one provider: enough to prove a state only works for the provider it was issued for.
    // And one that is down: nothing listens on its port.
    const down = { ...localProvider(idp, 'down'), issuer: `http://127.0.0.1:${await freePort()}` };
    h = await createHarness(open, {
      oauth: createOauthSettings([localProvider(idp), localProvider(idp, 'other'), down]),
      env: { PUBLIC_URL },
    });
  });
  afterAll(async () => {
    await h?.close();
    await idp?.close();
  });

  /** Asks for the URL (sign-in or, with a token, binding) and signs in at the provider as `subject`. */
  async function atProvider(subject: string, o: { token?: string; provider?: string } = {}) {
    const provider = o.provider ?? 'local';
    const { url, state } = o.token
      ? ok(await h.call('hub_getOauthBindUrl', { provider }, { token: o.token }))
      : ok(await h.call('hub_getOauthLoginUrl', { provider }));
    const answer = await idp.authorize(url, subject);
    expect(answer.state).toBe(state);
    expect(answer.callbackUrl.origin + answer.callbackUrl.pathname).toBe(
      `${PUBLIC_URL}${o.token ? '/bind/callback' : '/auth/callback'}`,
    );
    return { code: answer.code, state, provider };
  }

  async function registerThroughProvider(subject: string) {
    const check = ok(await h.call('hub_checkOauthCode', await atProvider(subject)));
    const made = ok(await h.call('hub_oauthRegister', { ticket: check.registration!.ticket }));
    return made.token;
  }

  async function profileOf(token: string) {
    return ok(await h.call('hub_getUserProfile', {}, { token }));
  }

  async function counts() {
    const [u] = await h.database.db.select({ n: count() }).from(users);
    const [i] = await h.database.db.select({ n: count() }).from(userIdentities);
    const [c] = await h.database.db.select({ n: count() }).from(authChallenges);
    return { users: u!.n, identities: i!.n, challenges: c!.n };
  }

  it('lists the configured providers in hub_getConfig', async () => {
    const config = ok(await h.call('hub_getConfig', {}));
    expect(config.oauthProviders).toEqual([
      { id: 'local', name: 'IdP local' },
      { id: 'other', name: 'IdP other' },
      { id: 'down', name: 'IdP down' },
    ]);
  });

  it('sends the user to the provider with PKCE (S256), the state and the callback', async () => {
    const { url, state } = ok(await h.call('hub_getOauthLoginUrl', { provider: 'local' }));
    const u = new URL(url);
    expect(u.origin).toBe(idp.issuer);
    expect(Object.fromEntries(u.searchParams)).toMatchObject({
      client_id: idp.clientId,
      response_type: 'code',
      redirect_uri: `${PUBLIC_URL}/auth/callback`,
      scope: 'openid email profile',
      state,
      code_challenge_method: 'S256',
    });
    expect(u.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only hashes at rest: the state is not stored, the verifier only sealed.
    const rows = await h.database.db.select().from(authChallenges);
    expect(JSON.stringify(rows)).not.toContain(state);
  });

  it('registers a new identity as an uninitialised, password-less user, then signs the same user in', async () => {
    const subject = newSubject();
    const before = await counts();
    const check = ok(await h.call('hub_checkOauthCode', await atProvider(subject)));
    expect(check.signIn).toBeNull();
    expect(check.registration).toMatchObject({
      provider: 'local',
      email: `${subject}@idp.test`,
      name: `User ${subject}`,
      emailTaken: false,
    });
    // Nobody is created until the user says so.
    expect((await counts()).users).toBe(before.users);

    const made = ok(
      await h.call('hub_oauthRegister', { ticket: check.registration!.ticket, language: 'zh' }),
    );
    expect(made).toMatchObject({ created: true, twoFactorRequired: false });
    const profile = await profileOf(made.token);
    expect(profile).toMatchObject({
      email: null,
      nickname: `User ${subject}`,
      initialize: false,
      isNoPassword: true,
      acceptTerm: false,
      language: 'zh',
    });
    expect(profile.oauth).toContainEqual({ provider: 'local', email: `${subject}@idp.test` });
    expect((await counts()).users).toBe(before.users + 1);

    const again = ok(await h.call('hub_checkOauthCode', await atProvider(subject)));
    expect(again.registration).toBeNull();
    expect(again.signIn).toMatchObject({ twoFactorRequired: false });
    expect((await profileOf(again.signIn!.token)).id).toBe(profile.id);
    expect((await counts()).users).toBe(before.users + 1);
    const methods = await h.database.db
      .select({ method: sessions.method })
      .from(sessions)
      .where(eq(sessions.userId, profile.id));
    expect(methods.map((m) => m.method)).toEqual(['local', 'local']);
  });

  it('refuses a replayed state (10216)', async () => {
    const answer = await atProvider(newSubject());
    ok(await h.call('hub_checkOauthCode', answer));
    expect(refused(await h.call('hub_checkOauthCode', answer))).toBe(
      ERROR_CODES.OAUTH_STATE_INVALID,
    );
  });

  it('refuses a state issued for another provider (10216), and leaves it good for its own', async () => {
    const answer = await atProvider(newSubject());
    expect(refused(await h.call('hub_checkOauthCode', { ...answer, provider: 'other' }))).toBe(
      ERROR_CODES.OAUTH_STATE_INVALID,
    );
    ok(await h.call('hub_checkOauthCode', answer));
  });

  it('refuses a state it never issued (10216)', async () => {
    const answer = await atProvider(newSubject());
    const state = randomBytes(32).toString('base64url');
    expect(refused(await h.call('hub_checkOauthCode', { ...answer, state }))).toBe(
      ERROR_CODES.OAUTH_STATE_INVALID,
    );
  });

  it('refuses a code redeemed with another attempt’s verifier: PKCE mismatch (10217)', async () => {
    const first = await atProvider(newSubject());
    const second = ok(await h.call('hub_getOauthLoginUrl', { provider: 'local' }));
    // The code of the first attempt, presented with the second's state: the second's verifier goes with it.
    const res = await h.call('hub_checkOauthCode', { ...first, state: second.state });
    expect(refused(res)).toBe(ERROR_CODES.OAUTH_EXCHANGE_FAILED);
    // The provider checks PKCE before spending the code: with its own state (and verifier) the code still works,
    // so the verifier alone was refused.
    ok(await h.call('hub_checkOauthCode', first));
  });

  it('refuses a made-up code (10217)', async () => {
    const answer = await atProvider(newSubject());
    const res = await h.call('hub_checkOauthCode', { ...answer, code: 'not-a-code-it-issued' });
    expect(refused(res)).toBe(ERROR_CODES.OAUTH_EXCHANGE_FAILED);
  });

  it('refuses a state older than 10 minutes (10216)', async () => {
    const answer = await atProvider(newSubject());
    h.clock.advance(11 * MINUTE);
    expect(refused(await h.call('hub_checkOauthCode', answer))).toBe(
      ERROR_CODES.OAUTH_STATE_INVALID,
    );
  });

  it('refuses a registration ticket used twice (10216)', async () => {
    const check = ok(await h.call('hub_checkOauthCode', await atProvider(newSubject())));
    const ticket = check.registration!.ticket;
    ok(await h.call('hub_oauthRegister', { ticket }));
    const before = await counts();
    expect(refused(await h.call('hub_oauthRegister', { ticket }))).toBe(
      ERROR_CODES.OAUTH_STATE_INVALID,
    );
    expect(await counts()).toEqual(before);
  });

  it('lets two registrations of one identity end in one user (the unique index decides)', async () => {
    const subject = newSubject();
    // Two tabs, each through the provider and back before either registers.
    const tabs = [
      ok(await h.call('hub_checkOauthCode', await atProvider(subject))),
      ok(await h.call('hub_checkOauthCode', await atProvider(subject))),
    ];
    const before = await counts();
    const made = await Promise.all(
      tabs.map(async (t) =>
        ok(await h.call('hub_oauthRegister', { ticket: t.registration!.ticket })),
      ),
    );
    const ids = await Promise.all(made.map(async (m) => (await profileOf(m.token)).id));
    expect(ids[0]).toBe(ids[1]);
    expect((await counts()).users).toBe(before.users + 1);
    expect((await counts()).identities).toBe(before.identities + 1);
  });

  it('never links by e-mail: emailTaken tells the web, nothing is bound', async () => {
    const owner = await h.signUp();
    const subject = newSubject();
    idp.setUser(subject, { email: owner.email.toUpperCase(), name: 'Someone' });
    const check = ok(await h.call('hub_checkOauthCode', await atProvider(subject)));
    expect(check.signIn).toBeNull();
    expect(check.registration).toMatchObject({ email: owner.email, emailTaken: true });
    expect((await profileOf(owner.token)).oauth).toEqual([]);
  });

  it('binds a provider to a password user and unbinds it', async () => {
    const user = await h.signUp();
    const subject = newSubject();
    const bound = ok(
      await h.call('hub_bindOauth', await atProvider(subject, { token: user.token }), {
        token: user.token,
      }),
    );
    expect(bound).toEqual({ provider: 'local', email: `${subject}@idp.test` });
    expect((await profileOf(user.token)).oauth).toEqual([
      { provider: 'local', email: `${subject}@idp.test` },
    ]);
    // The bound identity now signs this user in.
    const signIn = ok(await h.call('hub_checkOauthCode', await atProvider(subject)));
    expect((await profileOf(signIn.signIn!.token)).email).toBe(user.email);

    ok(await h.call('hub_unbindOauth', { provider: 'local' }, { token: user.token }));
    expect((await profileOf(user.token)).oauth).toEqual([]);
    expect(
      refused(await h.call('hub_unbindOauth', { provider: 'local' }, { token: user.token })),
    ).toBe(ERROR_CODES.NOT_FOUND);
  });

  it('refuses a bind state used by another user (10216)', async () => {
    const asker = await h.signUp();
    const other = await h.signUp();
    const answer = await atProvider(newSubject(), { token: asker.token });
    expect(refused(await h.call('hub_bindOauth', answer, { token: other.token }))).toBe(
      ERROR_CODES.OAUTH_STATE_INVALID,
    );
    // A sign-in state is not a bind state either, nor the other way round.
    const login = await atProvider(newSubject());
    expect(refused(await h.call('hub_bindOauth', login, { token: other.token }))).toBe(
      ERROR_CODES.OAUTH_STATE_INVALID,
    );
    expect(refused(await h.call('hub_checkOauthCode', answer))).toBe(
      ERROR_CODES.OAUTH_STATE_INVALID,
    );
  });

  it('refuses to bind an identity that belongs to another account (10212)', async () => {
    const subject = newSubject();
    await registerThroughProvider(subject);
    const user = await h.signUp();
    const answer = await atProvider(subject, { token: user.token });
    expect(refused(await h.call('hub_bindOauth', answer, { token: user.token }))).toBe(
      ERROR_CODES.IDENTITY_TAKEN,
    );
    expect((await profileOf(user.token)).oauth).toEqual([]);
  });

  it('refuses a second identity of the same provider, or the same one twice (10213)', async () => {
    const user = await h.signUp();
    const subject = newSubject();
    // All states first: once bound, hub_getOauthBindUrl itself refuses.
    const first = await atProvider(subject, { token: user.token });
    const another = await atProvider(newSubject(), { token: user.token });
    const sameAgain = await atProvider(subject, { token: user.token });
    ok(await h.call('hub_bindOauth', first, { token: user.token }));
    for (const answer of [another, sameAgain])
      expect(refused(await h.call('hub_bindOauth', answer, { token: user.token }))).toBe(
        ERROR_CODES.IDENTITY_ALREADY_BOUND,
      );
    expect(
      refused(await h.call('hub_getOauthBindUrl', { provider: 'local' }, { token: user.token })),
    ).toBe(ERROR_CODES.IDENTITY_ALREADY_BOUND);
  });

  it('binds only for a sign-in within 15 minutes (10225), at the start and at the callback', async () => {
    const user = await h.signUp();
    const subject = newSubject();
    const before = await counts();
    h.clock.advance(RECENT_SIGN_IN_MS + 1);
    // Refused before the trip to the provider: no state is issued.
    expect(
      refused(await h.call('hub_getOauthBindUrl', { provider: 'local' }, { token: user.token })),
    ).toBe(ERROR_CODES.RECENT_SIGN_IN_REQUIRED);
    expect(await counts()).toEqual(before);

    // Started in time, finished too late: refused, nothing bound, and the state is not spent.
    const relogin = async () =>
      ok(await h.call('hub_login', { email: user.email, password: digest(user.password) })).token;
    const started = await relogin();
    h.clock.advance(10 * MINUTE);
    const answer = await atProvider(subject, { token: started });
    // Another sign-in of the same user meanwhile (a state is the user's, not its session's).
    const fresh = await relogin();
    h.clock.advance(5 * MINUTE + 1);
    expect(refused(await h.call('hub_bindOauth', answer, { token: started }))).toBe(
      ERROR_CODES.RECENT_SIGN_IN_REQUIRED,
    );
    expect((await profileOf(user.token)).oauth).toEqual([]);
    // The old session cannot finish it either.
    expect(refused(await h.call('hub_bindOauth', answer, { token: user.token }))).toBe(
      ERROR_CODES.RECENT_SIGN_IN_REQUIRED,
    );
    expect((await counts()).identities).toBe(before.identities);

    // A session opened within 15 minutes finishes it.
    const bound = ok(await h.call('hub_bindOauth', answer, { token: fresh }));
    expect(bound).toEqual({ provider: 'local', email: `${subject}@idp.test` });
    expect((await profileOf(user.token)).oauth).toEqual([
      { provider: 'local', email: `${subject}@idp.test` },
    ]);
  });

  it('asks a password-less user for a recent sign-in too: old session 10225, signed in again it binds', async () => {
    const subject = newSubject();
    const token = await registerThroughProvider(subject);
    h.clock.advance(RECENT_SIGN_IN_MS + 1);
    const before = await counts();
    expect(refused(await h.call('hub_getOauthBindUrl', { provider: 'other' }, { token }))).toBe(
      ERROR_CODES.RECENT_SIGN_IN_REQUIRED,
    );
    expect(await counts()).toEqual(before);
    // Signed in again through the provider, the user binds the other one.
    const again = ok(await h.call('hub_checkOauthCode', await atProvider(subject))).signIn!.token;
    const other = newSubject();
    ok(
      await h.call('hub_bindOauth', await atProvider(other, { token: again, provider: 'other' }), {
        token: again,
      }),
    );
    expect((await profileOf(token)).oauth.map((o) => o.provider).sort()).toEqual([
      'local',
      'other',
    ]);
  });

  it('refuses to unbind the only way a password-less user signs in (10214)', async () => {
    const token = await registerThroughProvider(newSubject());
    expect(refused(await h.call('hub_unbindOauth', { provider: 'local' }, { token }))).toBe(
      ERROR_CODES.LAST_SIGN_IN_METHOD,
    );
    // With a second provider bound, the first may go.
    const other = await atProvider(newSubject(), { token, provider: 'other' });
    ok(await h.call('hub_bindOauth', other, { token }));
    ok(await h.call('hub_unbindOauth', { provider: 'local' }, { token }));
    expect((await profileOf(token)).oauth.map((o) => o.provider)).toEqual(['other']);
    // The wallet is not an OAuth provider, whatever the params say.
    expect(refused(await h.call('hub_unbindOauth', { provider: 'wallet' }, { token }))).toBe(
      ERROR_CODES.NOT_FOUND,
    );
  });

  type TBadCase = {
    name: string;
    method: 'hub_checkOauthCode' | 'hub_getOauthLoginUrl' | 'hub_oauthRegister';
    params: unknown;
    code: number;
  };
  const state = randomBytes(32).toString('base64url');
  const BAD_INPUT: TBadCase[] = [
    {
      name: 'malformed provider',
      method: 'hub_checkOauthCode',
      params: { provider: 'Git Hub', code: 'abc', state },
      code: ERROR_CODES.INVALID_PARAMS,
    },
    {
      name: 'code with spaces',
      method: 'hub_checkOauthCode',
      params: { provider: 'local', code: 'a b', state },
      code: ERROR_CODES.INVALID_PARAMS,
    },
    {
      name: '10 kB code',
      method: 'hub_checkOauthCode',
      params: { provider: 'local', code: 'a'.repeat(10_240), state },
      code: ERROR_CODES.INVALID_PARAMS,
    },
    {
      name: 'missing state',
      method: 'hub_checkOauthCode',
      params: { provider: 'local', code: 'abc' },
      code: ERROR_CODES.INVALID_PARAMS,
    },
    {
      name: 'state with a slash',
      method: 'hub_checkOauthCode',
      params: { provider: 'local', code: 'abc', state: `${state.slice(1)}/` },
      code: ERROR_CODES.INVALID_PARAMS,
    },
    {
      name: 'unknown provider (sign-in)',
      method: 'hub_checkOauthCode',
      params: { provider: 'nosuch', code: 'abc', state },
      code: ERROR_CODES.OAUTH_PROVIDER_UNKNOWN,
    },
    {
      name: 'unknown provider (URL)',
      method: 'hub_getOauthLoginUrl',
      params: { provider: 'nosuch' },
      code: ERROR_CODES.OAUTH_PROVIDER_UNKNOWN,
    },
    {
      name: 'provider down',
      method: 'hub_getOauthLoginUrl',
      params: { provider: 'down' },
      code: ERROR_CODES.OAUTH_PROVIDER_UNKNOWN,
    },
    {
      name: 'made-up ticket',
      method: 'hub_oauthRegister',
      params: { ticket: state },
      code: ERROR_CODES.OAUTH_STATE_INVALID,
    },
  ];

  it.each(BAD_INPUT)('answers $name with $code and writes nothing', async (c) => {
    const before = await counts();
    const res = await h.call(c.method, c.params as TParamsIn<typeof c.method>);
    expect(refused(res)).toBe(c.code);
    expect(await counts()).toEqual(before);
  });
});

describe('provider discovery', () => {
  it('is lazy: a provider down at start is tried again on the next sign-in', async () => {
    const port = await freePort();
    const config: TOauthProviderEnv = {
      id: 'late',
      name: 'Late',
      kind: 'oidc',
      clientId: 'console-test',
      clientSecret: 'secret',
      issuer: `http://127.0.0.1:${port}`,
      allowInsecureRequests: true,
    };
    const [late] = createOauthSettings([config]).providers;
    const ask = () =>
      late!.client.authorizationUrl({
        redirectUri: REDIRECT_URIS[0]!,
        state: 'state-0123456789abcdef',
        codeChallenge: 'c'.repeat(43),
      });
    await expect(ask()).rejects.toThrow();
    const idp = await startOidcProvider({
      port,
      redirectUris: REDIRECT_URIS,
      clientId: 'console-test',
      clientSecret: 'secret',
    });
    try {
      expect(new URL(await ask()).origin).toBe(idp.issuer);
    } finally {
      await idp.close();
    }
  });
});

/**
 * GitHub is plain OAuth 2, so no local OpenID Connect provider can stand in for it: a stand-in of the endpoints
 * GitHub documents (token exchange checking PKCE, /user, /user/emails) checks what the client sends and reads.
 */
describe('the github preset', () => {
  let server: http.Server;
  let base = '';
  const issued = new Map<string, string>(); // code → code_challenge
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const json = (status: number, body: unknown) =>
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        const authorised = req.headers.authorization === 'Bearer gho_test';
        if (req.method === 'POST' && req.url === '/login/oauth/access_token') {
          const form = new URLSearchParams(Buffer.concat(chunks).toString());
          const challenge = issued.get(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          const matches =
            challenge === createHash('sha256').update(verifier).digest('base64url') &&
            form.get('client_secret') === 'gh-secret';
          // GitHub answers refusals with 200 and an error field.
          return matches
            ? json(200, { access_token: 'gho_test', token_type: 'bearer', scope: 'read:user' })
            : json(200, { error: 'bad_verification_code' });
        }
        if (req.url === '/user' && authorised && req.headers['user-agent'])
          return json(200, { id: 583231, login: 'octocat', name: null, email: null });
        if (req.url === '/user/emails' && authorised)
          return json(200, [
            { email: 'old@example.com', primary: false, verified: true },
            { email: 'Octo@Example.com', primary: true, verified: true },
          ]);
        json(401, { message: 'Bad credentials' });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function client() {
    return createOauthClient({
      id: 'github',
      name: 'GitHub',
      kind: 'github',
      clientId: 'gh-client',
      clientSecret: 'gh-secret',
      issuer: null,
      allowInsecureRequests: true,
      githubEndpoints: {
        authorization: `${base}/login/oauth/authorize`,
        token: `${base}/login/oauth/access_token`,
        api: base,
      },
    });
  }

  it('asks for the user and e-mail scopes with PKCE and reads the numeric id and verified primary address', async () => {
    const gh = client();
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const redirectUri = REDIRECT_URIS[0]!;
    const url = new URL(
      await gh.authorizationUrl({ redirectUri, state: 's'.repeat(43), codeChallenge: challenge }),
    );
    expect(url.searchParams.get('scope')).toBe('read:user user:email');
    expect(url.searchParams.get('code_challenge')).toBe(challenge);
    issued.set('gh-code', challenge);
    await expect(
      gh.redeem({ redirectUri, code: 'gh-code', state: 's'.repeat(43), codeVerifier: verifier }),
    ).resolves.toEqual({
      subject: '583231',
      email: 'octo@example.com',
      emailVerified: true,
      name: 'octocat',
    });
    await expect(
      gh.redeem({
        redirectUri,
        code: 'gh-code',
        state: 's'.repeat(43),
        codeVerifier: 'x'.repeat(43),
      }),
    ).rejects.toThrow();
  });
});
