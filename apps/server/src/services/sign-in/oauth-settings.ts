/**
 * Third-party sign-in providers, configured by env (services/sign-in/oauth-env.ts, docs/decisions/sign-in.md):
 * the GitHub and Google presets and any OpenID Connect issuer. Tests pass their own list to createServer.
 */
import { createOauthClient, type TOauthClient, type TOauthProviderConfig } from './oauth-client';
import type { TOauthProviderEnv } from './oauth-env';

export type TOauthProvider = {
  /** the id in URLs and params, e.g. github, google, or the operator's own */
  id: string;
  /** shown on the sign-in button */
  name: string;
  /** the provider's side of the flow; talks to the provider only when a sign-in needs it */
  client: TOauthClient;
};

export type TOauthSettings = { providers: TOauthProvider[] };

export function createOauthSettings(configs: TOauthProviderConfig[]): TOauthSettings {
  return {
    providers: configs.map((c) => ({ id: c.id, name: c.name, client: createOauthClient(c) })),
  };
}

/** The providers of a parsed environment (env.ts has already refused half configurations). */
export function loadOauthSettings(env: { OAUTH_PROVIDERS: TOauthProviderEnv[] }): TOauthSettings {
  return createOauthSettings(env.OAUTH_PROVIDERS);
}

export function findOauthProvider(
  settings: TOauthSettings,
  id: string,
): TOauthProvider | undefined {
  return settings.providers.find((p) => p.id === id);
}
