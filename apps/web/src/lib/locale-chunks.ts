/**
 * Which text loads when (lib/i18n.ts), and how the build groups the locale files into chunks (vite.config.ts):
 * one chunk per language for what the public pages show, one for the rest of the console, and the error texts on
 * their own (every page loads them in both languages: a transport error carries both).
 */

/** What every screen shows (titles, layout, error popups, icon labels): loaded before the first render. */
export const SHELL_NAMESPACES: readonly string[] = ['common', 'layout', 'errors', 'icons'];

/** What the sign-in and sign-up pages show besides the shell's text. */
export const SIGN_IN_NAMESPACES: readonly string[] = ['auth', 'sign-in', 'oauth'];

const PUBLIC_NAMESPACES = new Set([...SHELL_NAMESPACES, ...SIGN_IN_NAMESPACES]);

/** The contract's notice wording per language (packages/contract/src/notices/texts/<lang>.ts), loaded with `notices`. */
const CONTRACT_NOTICE_TEXTS = /\/packages\/contract\/src\/notices\/texts\/([^/]+)\.ts$/;

/** The chunk of a module id when it is a locale file (`locale-en-public`, `locale-zh-errors`), else null. */
export function localeChunkName(id: string): string | null {
  const contract = CONTRACT_NOTICE_TEXTS.exec(id);
  if (contract) return `locale-${contract[1]}`;
  const match = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(id);
  if (!match) return null;
  const [, lang, ns] = match;
  if (ns === 'errors') return `locale-${lang}-errors`;
  return PUBLIC_NAMESPACES.has(ns!) ? `locale-${lang}-public` : `locale-${lang}`;
}
