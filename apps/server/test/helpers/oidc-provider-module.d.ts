/**
 * The small part of oidc-provider (v9, which ships no types) that test/helpers/oidc-provider.ts uses. Widen it
 * here when the helper needs more; the library's documentation is the reference.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type TOidcAccount = {
    accountId: string;
    claims: (use: string, scope: string) => Promise<Record<string, unknown> & { sub: string }>;
  };

  export type TOidcConfiguration = {
    clients?: Array<Record<string, unknown>>;
    findAccount?: (ctx: unknown, sub: string) => Promise<TOidcAccount | undefined>;
    claims?: Record<string, string[]>;
    features?: Record<string, Record<string, unknown> & { enabled: boolean }>;
    pkce?: { required?: (ctx: unknown, client: unknown) => boolean };
    cookies?: { keys?: string[] };
    jwks?: { keys: Array<Record<string, unknown>> };
    ttl?: Record<string, number>;
  };

  export class Provider {
    constructor(issuer: string, configuration?: TOidcConfiguration);
    /** Koa's request listener for node:http */
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
  export default Provider;
}
