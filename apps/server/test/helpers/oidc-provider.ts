/**
 * A real OpenID Connect provider for tests (oidc-provider v9, its development login and consent screens): one
 * confidential client that must use PKCE, accounts made up on demand for any subject, and `authorize` to go
 * through the login like a browser would, without one. The browser tests start the same provider as a process
 * (oidc-provider-main.ts).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export type TOidcTestUser = {
  email?: string | null;
  emailVerified?: boolean;
  name?: string | null;
};

export type TStartOidcProviderOptions = {
  /** 0 (default): any free port */
  port?: number;
  host?: string;
  /** the console's /auth/callback and /bind/callback */
  redirectUris: string[];
  clientId?: string;
  clientSecret?: string;
  /** claims by subject; any other subject signs in as `<subject>@idp.test`, verified, named `User <subject>` */
  users?: Record<string, TOidcTestUser>;
};

export type TAuthorizationResponse = {
  code: string;
  state: string;
  /** the whole redirect, as the browser would have opened it */
  callbackUrl: URL;
};

export type TLocalOidcProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Adds or replaces the claims of a subject. */
  setUser: (subject: string, user: TOidcTestUser) => void;
  /**
   * Opens the authorization URL in a fresh "browser" (own cookie jar), signs in as `subject` on the provider's
   * login screen, confirms consent, and answers what the provider sends to the redirect URI.
   */
  authorize: (authorizationUrl: string, subject: string) => Promise<TAuthorizationResponse>;
  close: () => Promise<void>;
};

export async function startOidcProvider(o: TStartOidcProviderOptions): Promise<TLocalOidcProvider> {
  const host = o.host ?? '127.0.0.1';
  const clientId = o.clientId ?? 'console-test';
  const clientSecret = o.clientSecret ?? `secret-${randomBytes(16).toString('hex')}`;
  const users = new Map(Object.entries(o.users ?? {}));

  // The provider's issuer includes its port, so listen first and mount the provider once the port is known.
  let handler: http.RequestListener = (_req, res) => res.writeHead(503).end();
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://${host}:${port}`;

  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    format: 'jwk',
  });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: o.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    jwks: { keys: [{ ...signingKey, alg: 'RS256', use: 'sig', kid: 'test-key' }] },
    // Seconds; set, so the provider does not warn about its defaults.
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
    },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => {
        const user = users.get(sub) ?? {};
        return {
          sub,
          email: user.email === undefined ? `${sub}@idp.test` : user.email,
          email_verified: user.emailVerified ?? true,
          name: user.name === undefined ? `User ${sub}` : user.name,
        };
      },
    }),
  });
  handler = provider.callback();

  return {
    issuer,
    clientId,
    clientSecret,
    setUser: (subject, user) => void users.set(subject, user),
    authorize: (url, subject) => authorize(issuer, url, subject),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Follows redirects by hand, filling in the login and consent forms, until the provider leaves for the client. */
async function authorize(
  issuer: string,
  authorizationUrl: string,
  subject: string,
): Promise<TAuthorizationResponse> {
  const jar = new Map<string, string>();
  let url = new URL(authorizationUrl);
  let res = await send(jar, url);
  for (let step = 0; step < 12; step++) {
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url);
      if (next.origin !== new URL(issuer).origin) return callbackOf(next);
      url = next;
      res = await send(jar, url);
      continue;
    }
    const page = await res.text();
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    if (res.status !== 200 || !prompt)
      throw new Error(`provider answered ${res.status} at ${url.pathname}: ${page.slice(0, 300)}`);
    // The development screens post back to the page's own path; the password is not checked.
    const form: Record<string, string> =
      prompt === 'login' ? { prompt, login: subject, password: 'any' } : { prompt: 'consent' };
    res = await send(jar, url, new URLSearchParams(form));
  }
  throw new Error('the provider kept redirecting');
}

function callbackOf(url: URL): TAuthorizationResponse {
  const error = url.searchParams.get('error');
  if (error)
    throw new Error(`provider refused: ${error} ${url.searchParams.get('error_description')}`);
  const code = url.searchParams.get('code');
  const state = url.searchParams.get('state');
  if (!code || !state) throw new Error(`no code or state in ${url.pathname}`);
  return { code, state, callbackUrl: url };
}

async function send(jar: Map<string, string>, url: URL, form?: URLSearchParams): Promise<Response> {
  const headers: Record<string, string> = {};
  // One jar for the whole login; cookie paths do not matter to the provider's own screens.
  if (jar.size > 0) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(url, {
    method: form ? 'POST' : 'GET',
    headers: form ? { ...headers, 'content-type': 'application/x-www-form-urlencoded' } : headers,
    body: form,
    redirect: 'manual',
  });
  for (const line of res.headers.getSetCookie()) {
    const [pair = '', ...attributes] = line.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const expired = attributes.some((a) => /^\s*expires=.*1970/i.test(a));
    if (!value || expired) jar.delete(name);
    else jar.set(name, value);
  }
  return res;
}
