/**
 * One provider's side of the flow, on openid-client: the authorization URL (PKCE S256, state) and redeeming the
 * code for the identity behind it. OpenID Connect providers are configured from their issuer's discovery document,
 * fetched on first use and kept; a failed discovery is retried on the next use, so the console starts while a
 * provider is down. GitHub is plain OAuth 2 with fixed endpoints and its REST API for the user.
 */
import * as oidc from 'openid-client';
import { z } from 'zod';
import type { TOauthProviderEnv } from './oauth-env';

/** Seconds any single request to a provider may take (discovery, token, userinfo). */
const PROVIDER_TIMEOUT_S = 10;

export const OIDC_SCOPES = 'openid email profile';
export const GITHUB_SCOPES = 'read:user user:email';

export type TGithubEndpoints = { authorization: string; token: string; api: string };

export const GITHUB_ENDPOINTS: TGithubEndpoints = {
  authorization: 'https://github.com/login/oauth/authorize',
  token: 'https://github.com/login/oauth/access_token',
  api: 'https://api.github.com',
};

/** A provider as configured; `githubEndpoints` points a github-kind provider elsewhere (tests). */
export type TOauthProviderConfig = TOauthProviderEnv & { githubEndpoints?: TGithubEndpoints };

/** Who the provider says signed in. */
export type TOauthIdentity = {
  /** the provider's stable id for the person (OIDC sub, GitHub's numeric id) */
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
};

export type TOauthClient = {
  /** Throws when the provider cannot be configured (discovery failed): the caller answers 10215. */
  authorizationUrl: (o: {
    redirectUri: string;
    state: string;
    codeChallenge: string;
  }) => Promise<string>;
  /** Throws on any refusal or failure of the provider (bad code, PKCE mismatch, unreachable): 10217. */
  redeem: (o: {
    redirectUri: string;
    code: string;
    state: string;
    codeVerifier: string;
  }) => Promise<TOauthIdentity>;
};

export function createOauthClient(p: TOauthProviderConfig): TOauthClient {
  let pending: Promise<oidc.Configuration> | null = null;
  const configuration = (): Promise<oidc.Configuration> => {
    pending ??= configure(p).catch((err: unknown) => {
      pending = null;
      throw err;
    });
    return pending;
  };

  return {
    authorizationUrl: async ({ redirectUri, state, codeChallenge }) => {
      const config = await configuration();
      return oidc
        .buildAuthorizationUrl(config, {
          redirect_uri: redirectUri,
          scope: p.kind === 'github' ? GITHUB_SCOPES : OIDC_SCOPES,
          state,
          code_challenge: codeChallenge,
          code_challenge_method: 'S256',
        })
        .toString();
    },
    redeem: async ({ redirectUri, code, state, codeVerifier }) => {
      const config = await configuration();
      const callback = new URL(redirectUri);
      callback.searchParams.set('code', code);
      callback.searchParams.set('state', state);
      // RFC 9207: the web passes only code and state. The state names the provider, so the issuer that answered
      // is the one we sent the user to; supplying it keeps openid-client's check satisfied.
      const server = config.serverMetadata();
      if (server.authorization_response_iss_parameter_supported)
        callback.searchParams.set('iss', server.issuer);
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: codeVerifier,
        expectedState: state,
        ...(p.kind === 'oidc' ? { idTokenExpected: true } : {}),
      });
      return p.kind === 'github'
        ? githubIdentity(config, tokens.access_token, p.githubEndpoints ?? GITHUB_ENDPOINTS)
        : oidcIdentity(config, tokens);
    },
  };
}

async function configure(p: TOauthProviderConfig): Promise<oidc.Configuration> {
  let config: oidc.Configuration;
  if (p.kind === 'github') {
    const endpoints = p.githubEndpoints ?? GITHUB_ENDPOINTS;
    config = new oidc.Configuration(
      {
        issuer: new URL(endpoints.authorization).origin,
        authorization_endpoint: endpoints.authorization,
        token_endpoint: endpoints.token,
      },
      p.clientId,
      p.clientSecret,
      oidc.ClientSecretPost(p.clientSecret),
    );
  } else {
    const discovered = await oidc.discovery(
      new URL(p.issuer ?? ''),
      p.clientId,
      undefined,
      oidc.None(),
      {
        timeout: PROVIDER_TIMEOUT_S,
        ...(p.allowInsecureRequests ? { execute: [oidc.allowInsecureRequests] } : {}),
      },
    );
    const server = discovered.serverMetadata();
    // Basic is the default of OpenID Connect Discovery when the provider does not say.
    const methods = server.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
    const auth = methods.includes('client_secret_basic')
      ? oidc.ClientSecretBasic(p.clientSecret)
      : oidc.ClientSecretPost(p.clientSecret);
    config = new oidc.Configuration({ ...server }, p.clientId, p.clientSecret, auth);
  }
  config.timeout = PROVIDER_TIMEOUT_S;
  if (p.allowInsecureRequests) oidc.allowInsecureRequests(config);
  return config;
}

const ZClaimsSchema = z.object({
  email: z.string().optional().catch(undefined),
  email_verified: z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .optional()
    .catch(undefined),
  name: z.string().optional().catch(undefined),
  preferred_username: z.string().optional().catch(undefined),
});

async function oidcIdentity(
  config: oidc.Configuration,
  tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers,
): Promise<TOauthIdentity> {
  const idToken = tokens.claims();
  if (!idToken) throw new Error('the provider returned no ID token');
  // Providers that follow the spec strictly keep e-mail and name out of the ID token: ask the userinfo endpoint.
  const info = config.serverMetadata().userinfo_endpoint
    ? await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub)
    : {};
  const claims = ZClaimsSchema.parse({ ...idToken, ...info });
  return {
    subject: idToken.sub,
    email: cleanEmail(claims.email),
    emailVerified: claims.email_verified === true || claims.email_verified === 'true',
    name: cleanName(claims.name ?? claims.preferred_username),
  };
}

const ZGithubUserSchema = z.object({
  id: z.number().int().positive(),
  login: z.string(),
  name: z.string().nullish(),
  email: z.string().nullish(),
});
const ZGithubEmailsSchema = z.array(
  z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }),
);

async function githubIdentity(
  config: oidc.Configuration,
  accessToken: string,
  endpoints: TGithubEndpoints,
): Promise<TOauthIdentity> {
  const user = ZGithubUserSchema.parse(await githubGet(config, accessToken, endpoints, '/user'));
  let email = cleanEmail(user.email ?? undefined);
  let emailVerified = false;
  try {
    const emails = ZGithubEmailsSchema.parse(
      await githubGet(config, accessToken, endpoints, '/user/emails'),
    );
    const primary = emails.find((e) => e.primary && e.verified);
    if (primary) {
      email = cleanEmail(primary.email);
      emailVerified = email !== null;
    }
  } catch {
    // The user:email scope was not granted: keep the public address, unverified.
  }
  return {
    subject: String(user.id),
    email,
    emailVerified,
    name: cleanName(user.name ?? user.login),
  };
}

async function githubGet(
  config: oidc.Configuration,
  accessToken: string,
  endpoints: TGithubEndpoints,
  path: string,
): Promise<unknown> {
  const res = await oidc.fetchProtectedResource(
    config,
    accessToken,
    new URL(endpoints.api + path),
    'GET',
    undefined,
    // GitHub's API refuses requests without a User-Agent.
    new Headers({ accept: 'application/vnd.github+json', 'user-agent': 'rpc-console' }),
  );
  if (!res.ok) throw new Error(`GitHub API ${path} answered ${res.status}`);
  return res.json();
}

function cleanEmail(value: string | undefined): string | null {
  const email = value?.trim().toLowerCase();
  return email && email.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(email) ? email : null;
}

function cleanName(value: string | undefined): string | null {
  const name = value?.trim().replace(/\s+/g, ' ').slice(0, 128);
  return name ? name : null;
}

/**
 * What may be logged of a provider failure: the error's kind and the provider's own error code and description.
 * Never the whole error: openid-client attaches the authorization response (with the code) as its cause.
 */
export function describeOauthError(err: unknown): Record<string, string | number> {
  if (!(err instanceof Error)) return { message: String(err).slice(0, 200) };
  const out: Record<string, string | number> = {
    name: err.name,
    message: err.message.slice(0, 200),
  };
  const e = err as Error & Record<string, unknown>;
  for (const key of ['code', 'error', 'error_description', 'status'] as const) {
    const v = e[key];
    if (typeof v === 'string') out[key] = v.slice(0, 200);
    else if (typeof v === 'number') out[key] = v;
  }
  return out;
}
