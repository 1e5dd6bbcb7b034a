/**
 * Loads auth-checks.ts (zod and the contract's schemas) when a plain form first needs it. The pages start the load
 * on their form's first change, so it is in before the first submit; a check that cannot load lets the value
 * through: the server checks it again with the same schema and says what is wrong.
 */
import type * as AuthChecks from './auth-checks';

type TAuthChecks = typeof AuthChecks;

let loading: Promise<TAuthChecks> | undefined;

export function loadAuthChecks(): Promise<TAuthChecks> {
  loading ??= import('./auth-checks').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** The checks, or null when their code could not be loaded (logged). */
export function authChecks(): Promise<TAuthChecks | null> {
  return loadAuthChecks().catch((error: unknown) => {
    console.error('The form checks could not be loaded', error);
    return null;
  });
}

/** For a form's onChange: starts the load, quietly (the check that needs it reports a failure). */
export function preloadAuthChecks(): void {
  loadAuthChecks().catch(() => undefined);
}
