import { describe, expect, it } from 'vitest';
import { parseEnv } from '../../env';
import { parseOauthEnv } from './oauth-env';

const GITHUB = { OAUTH_GITHUB_CLIENT_ID: 'gh-id', OAUTH_GITHUB_CLIENT_SECRET: 'gh-secret' };

describe('parseOauthEnv', () => {
  it('has no providers when OAUTH_PROVIDERS is unset', () => {
    expect(parseOauthEnv({})).toEqual({ providers: [], issues: [] });
  });

  it('fills in the github and google presets', () => {
    const { providers, issues } = parseOauthEnv({
      OAUTH_PROVIDERS: 'github, google',
      ...GITHUB,
      OAUTH_GOOGLE_CLIENT_ID: 'g-id',
      OAUTH_GOOGLE_CLIENT_SECRET: 'g-secret',
    });
    expect(issues).toEqual([]);
    expect(providers).toEqual([
      {
        id: 'github',
        name: 'GitHub',
        kind: 'github',
        clientId: 'gh-id',
        clientSecret: 'gh-secret',
        issuer: null,
        allowInsecureRequests: false,
      },
      {
        id: 'google',
        name: 'Google',
        kind: 'oidc',
        clientId: 'g-id',
        clientSecret: 'g-secret',
        issuer: 'https://accounts.google.com',
        allowInsecureRequests: false,
      },
    ]);
  });

  it('takes any OpenID Connect issuer for other ids, with an optional name', () => {
    const { providers, issues } = parseOauthEnv({
      OAUTH_PROVIDERS: 'corp-sso',
      OAUTH_CORP_SSO_CLIENT_ID: 'id',
      OAUTH_CORP_SSO_CLIENT_SECRET: 'secret',
      OAUTH_CORP_SSO_ISSUER: 'https://sso.example.com/realms/main/',
      OAUTH_CORP_SSO_NAME: 'Corporate SSO',
    });
    expect(issues).toEqual([]);
    expect(providers[0]).toMatchObject({
      id: 'corp-sso',
      name: 'Corporate SSO',
      kind: 'oidc',
      issuer: 'https://sso.example.com/realms/main',
    });
  });

  // [env, the issue expected, ids still configured]
  it.each<[Record<string, string>, RegExp, string[]]>([
    [{ OAUTH_PROVIDERS: 'github', OAUTH_GITHUB_CLIENT_ID: 'x' }, /OAUTH_GITHUB_CLIENT_SECRET/, []],
    [
      { OAUTH_PROVIDERS: 'corp', OAUTH_CORP_CLIENT_ID: 'x', OAUTH_CORP_CLIENT_SECRET: 'y' },
      /OAUTH_CORP_ISSUER: required/,
      [],
    ],
    [
      {
        OAUTH_PROVIDERS: 'corp',
        OAUTH_CORP_CLIENT_ID: 'x',
        OAUTH_CORP_CLIENT_SECRET: 'y',
        OAUTH_CORP_ISSUER: 'http://idp:8080',
      },
      /ALLOW_INSECURE_HTTP=true/,
      [],
    ],
    [
      { OAUTH_PROVIDERS: 'github', ...GITHUB, OAUTH_GITHUB_ISSUER: 'https://github.com' },
      /OAUTH_GITHUB_ISSUER/,
      [],
    ],
    [{ OAUTH_PROVIDERS: 'GitHub' }, /not a provider id/, []],
    [{ OAUTH_PROVIDERS: 'wallet' }, /not a provider id/, []],
    [{ OAUTH_PROVIDERS: 'github,github', ...GITHUB }, /listed twice/, ['github']],
    [{ ...GITHUB }, /OAUTH_GITHUB_CLIENT_ID: set, but OAUTH_PROVIDERS does not list/, []],
  ])('refuses half a configuration: %j', (env, message, configured) => {
    const { providers, issues } = parseOauthEnv(env);
    expect(issues.join('\n')).toMatch(message);
    expect(providers.map((p) => p.id)).toEqual(configured);
  });

  it('allows an http issuer only when told to, for local test providers', () => {
    const { providers, issues } = parseOauthEnv({
      OAUTH_PROVIDERS: 'local',
      OAUTH_LOCAL_CLIENT_ID: 'x',
      OAUTH_LOCAL_CLIENT_SECRET: 'y',
      OAUTH_LOCAL_ISSUER: 'http://127.0.0.1:12112',
      OAUTH_LOCAL_ALLOW_INSECURE_HTTP: 'true',
    });
    expect(issues).toEqual([]);
    expect(providers[0]).toMatchObject({
      issuer: 'http://127.0.0.1:12112',
      allowInsecureRequests: true,
    });
  });
});

describe('parseEnv with OAUTH_PROVIDERS', () => {
  it('answers the parsed providers', () => {
    expect(parseEnv({ OAUTH_PROVIDERS: 'github', ...GITHUB }).OAUTH_PROVIDERS).toMatchObject([
      { id: 'github', clientId: 'gh-id' },
    ]);
    expect(parseEnv({}).OAUTH_PROVIDERS).toEqual([]);
  });

  it('refuses to start on half a configuration, naming the variable, never the secret', () => {
    const run = () =>
      parseEnv({ OAUTH_PROVIDERS: 'github', OAUTH_GITHUB_CLIENT_SECRET: 'do-not-print-me' });
    expect(run).toThrowError(/Invalid environment:[\s\S]*OAUTH_GITHUB_CLIENT_ID/);
    expect(run).not.toThrowError(/do-not-print-me/);
  });
});
