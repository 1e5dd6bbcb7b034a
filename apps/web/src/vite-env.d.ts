/// <reference types="vite/client" />

// An interface on purpose: it merges with Vite's own ImportMetaEnv, which a type alias cannot do.
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions
interface ImportMetaEnv {
  /** Injected by build-meta-plugin.ts; compared with builds/meta/latest.json to detect a newer build. */
  readonly VITE_BUILD_ID: string;
  /** comma-separated hosts outside the console that navigation may go to (SPEC §2) */
  readonly VITE_EXTERNAL_HOSTS?: string;
  /** terms of service and privacy policy, outside the console (lib/help-links.ts) */
  readonly VITE_TERMS_URL?: string;
  readonly VITE_PRIVACY_URL?: string;
}
