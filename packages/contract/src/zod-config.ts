/**
 * Imported first by index.ts, so it runs before any schema of the contract is built. In a browser page the console's
 * Content-Security-Policy forbids eval (script-src 'self'); zod 4 would otherwise probe `new Function` once and
 * compile object parsers with it, and the browser reports even the caught probe as a violation. Servers keep zod's
 * compiled parsers (no CSP there, and they validate every request and result).
 */
import { z } from 'zod';

// `'document' in globalThis`: the contract compiles without the DOM types.
if ('document' in globalThis) z.config({ jitless: true });
