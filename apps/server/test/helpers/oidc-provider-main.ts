/**
 * The local OpenID Connect provider as a process, for the browser tests (started like fake-stripe-main.ts):
 * OIDC_PORT (default 12112), OIDC_REDIRECT_URIS (comma-separated: the console's /auth/callback and /bind/callback),
 * OIDC_CLIENT_ID and OIDC_CLIENT_SECRET. Point the console at it with OAUTH_PROVIDERS=<id>,
 * OAUTH_<ID>_ISSUER=http://127.0.0.1:<port>, OAUTH_<ID>_ALLOW_INSECURE_HTTP=true and the same client id and secret.
 * Any login name signs in as that subject (e-mail <name>@idp.test); the password is not checked.
 */
import { startOidcProvider } from './oidc-provider';

const consoleUrl = process.env.PUBLIC_URL ?? 'http://localhost:3000';
const provider = await startOidcProvider({
  port: Number(process.env.OIDC_PORT ?? 12112),
  host: process.env.OIDC_HOST ?? '127.0.0.1',
  redirectUris: (
    process.env.OIDC_REDIRECT_URIS ?? `${consoleUrl}/auth/callback,${consoleUrl}/bind/callback`
  )
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
  clientId: process.env.OIDC_CLIENT_ID ?? 'console-e2e',
  clientSecret: process.env.OIDC_CLIENT_SECRET ?? 'console-e2e-secret',
});
process.stdout.write(`OpenID Connect provider at ${provider.issuer}\n`);
const stop = () => void provider.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
