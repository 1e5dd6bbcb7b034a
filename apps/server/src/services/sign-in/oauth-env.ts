/**
 * Third-party sign-in providers as the operator writes them in the environment (docs/decisions/sign-in.md):
 * OAUTH_PROVIDERS=github,google,corp and, per id, OAUTH_<ID>_CLIENT_ID, OAUTH_<ID>_CLIENT_SECRET, optional
 * OAUTH_<ID>_NAME and OAUTH_<ID>_ISSUER (required for ids other than the presets), and OAUTH_<ID>_ALLOW_INSECURE_HTTP
 * for an http issuer (local test rigs only). Pure parsing: nothing here talks to a provider.
 */

/** github: plain OAuth 2 with GitHub's fixed endpoints; oidc: OpenID Connect through the issuer's discovery. */
export type TOauthProviderKind = 'github' | 'oidc';

export type TOauthProviderEnv = {
  id: string;
  name: string;
  kind: TOauthProviderKind;
  clientId: string;
  clientSecret: string;
  /** the OpenID Connect issuer (kind oidc); null for GitHub */
  issuer: string | null;
  /** http issuer and endpoints allowed: only ever set explicitly, for a local provider in tests */
  allowInsecureRequests: boolean;
};

type TPreset = { name: string; kind: TOauthProviderKind; issuer: string | null };

export const OAUTH_PRESETS: Readonly<Record<string, TPreset>> = {
  github: { name: 'GitHub', kind: 'github', issuer: null },
  google: { name: 'Google', kind: 'oidc', issuer: 'https://accounts.google.com' },
};

/** Same shape as the contract's provider id; 'wallet' and 'password' name other ways to sign in. */
const PROVIDER_ID = /^[a-z0-9][a-z0-9-]{0,31}$/;
const RESERVED_IDS = new Set(['wallet', 'password']);
const SETTINGS = ['CLIENT_ID', 'CLIENT_SECRET', 'NAME', 'ISSUER', 'ALLOW_INSECURE_HTTP'] as const;
const SETTING_VAR = new RegExp(`^OAUTH_([A-Z0-9_]+)_(${SETTINGS.join('|')})$`);

/** The env prefix of a provider id: corp-sso → OAUTH_CORP_SSO_ */
export function oauthEnvPrefix(id: string): string {
  return `OAUTH_${id.toUpperCase().replace(/-/g, '_')}_`;
}

/**
 * Reads every configured provider; `issues` names each variable that is missing or wrong (the caller refuses to
 * start on any), so a half-configured provider never silently disappears from the sign-in page.
 */
export function parseOauthEnv(source: Readonly<Record<string, string | undefined>>): {
  providers: TOauthProviderEnv[];
  issues: string[];
} {
  const get = (name: string) => {
    const v = source[name]?.trim();
    return v ? v : undefined;
  };
  const ids = (get('OAUTH_PROVIDERS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const issues: string[] = [];
  const providers: TOauthProviderEnv[] = [];
  const seen = new Set<string>();

  for (const id of ids) {
    if (!PROVIDER_ID.test(id) || RESERVED_IDS.has(id)) {
      issues.push(
        `OAUTH_PROVIDERS: "${id}" is not a provider id (lowercase letters, digits and -, at most 32; not wallet or password)`,
      );
      continue;
    }
    if (seen.has(id)) {
      issues.push(`OAUTH_PROVIDERS: "${id}" is listed twice`);
      continue;
    }
    seen.add(id);
    const prefix = oauthEnvPrefix(id);
    const preset = OAUTH_PRESETS[id];
    const clientId = get(`${prefix}CLIENT_ID`);
    const clientSecret = get(`${prefix}CLIENT_SECRET`);
    const issuerRaw = get(`${prefix}ISSUER`);
    const insecureRaw = get(`${prefix}ALLOW_INSECURE_HTTP`) ?? 'false';
    const before = issues.length;

    if (!clientId) issues.push(`${prefix}CLIENT_ID: required because OAUTH_PROVIDERS lists ${id}`);
    if (!clientSecret)
      issues.push(`${prefix}CLIENT_SECRET: required because OAUTH_PROVIDERS lists ${id}`);
    if (!['true', 'false', '1', '0'].includes(insecureRaw))
      issues.push(`${prefix}ALLOW_INSECURE_HTTP: must be true or false`);
    const allowInsecureRequests = insecureRaw === 'true' || insecureRaw === '1';

    let issuer: string | null = null;
    if (preset?.kind === 'github') {
      if (issuerRaw)
        issues.push(`${prefix}ISSUER: GitHub is plain OAuth 2 with fixed endpoints; remove it`);
    } else {
      const candidate = issuerRaw ?? preset?.issuer;
      if (!candidate) {
        issues.push(
          `${prefix}ISSUER: required for ${id} (the OpenID Connect issuer URL; only github and google have presets)`,
        );
      } else if (!isUrl(candidate)) {
        issues.push(`${prefix}ISSUER: must be an http(s) URL`);
      } else if (candidate.startsWith('http:') && !allowInsecureRequests) {
        issues.push(
          `${prefix}ISSUER: an http issuer needs ${prefix}ALLOW_INSECURE_HTTP=true (local test providers only)`,
        );
      } else {
        issuer = candidate.replace(/\/+$/, '');
      }
    }
    const name = get(`${prefix}NAME`) ?? preset?.name ?? id;
    if (name.length > 40) issues.push(`${prefix}NAME: at most 40 characters`);

    if (issues.length === before && clientId && clientSecret)
      providers.push({
        id,
        name,
        kind: preset?.kind ?? 'oidc',
        clientId,
        clientSecret,
        issuer,
        allowInsecureRequests,
      });
  }

  // A setting for a provider that is not listed is half a configuration too (usually a forgotten list entry).
  const listedPrefixes = new Set([...seen].map(oauthEnvPrefix));
  for (const name of Object.keys(source).sort()) {
    const m = SETTING_VAR.exec(name);
    if (!m || !get(name)) continue;
    if (!listedPrefixes.has(`OAUTH_${m[1]}_`))
      issues.push(`${name}: set, but OAUTH_PROVIDERS does not list that provider`);
  }
  return { providers, issues };
}

function isUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !u.search && !u.hash;
  } catch {
    return false;
  }
}
