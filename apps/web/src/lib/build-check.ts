/**
 * Newer-build detection and the reload guard (SPEC §4): a reload after a chunk-load failure or a new
 * build happens at most once per path within RELOAD_GUARD_MS, remembered in sessionStorage.
 */
import { RELOAD_GUARD_MS } from '@rpc/contract';
import { STORAGE_KEY } from './storage-keys';

export const BUILD_ID: string = import.meta.env.VITE_BUILD_ID ?? 'dev';
export const LATEST_BUILD_PATH = '/builds/meta/latest.json';
export const BUILD_CHECK_INTERVAL_MS = 3 * 60_000;

export type TBuildMeta = { id: string; timestamp: number };

/** The manifest URL with a timestamp query, so no cache answers for the server. */
export function latestBuildUrl(now: number): string {
  return `${LATEST_BUILD_PATH}?t=${now}`;
}

/** True when the manifest names a build other than the running one. */
export function isNewerBuild(runningId: string, latest: unknown): boolean {
  if (!latest || typeof latest !== 'object') return false;
  const id = (latest as Partial<TBuildMeta>).id;
  return typeof id === 'string' && id.length > 0 && id !== runningId;
}

type TStorage = Pick<Storage, 'getItem' | 'setItem'>;

function readGuard(storage: TStorage): Record<string, number> {
  try {
    const value: unknown = JSON.parse(storage.getItem(STORAGE_KEY.reloadGuard) ?? '{}');
    return value && typeof value === 'object' ? (value as Record<string, number>) : {};
  } catch {
    return {};
  }
}

/** Whether an automatic reload of `path` is allowed now. */
export function canReload(path: string, now: number, storage: TStorage): boolean {
  const last = readGuard(storage)[path];
  return typeof last !== 'number' || now - last >= RELOAD_GUARD_MS || now < last;
}

/** Records a reload of `path` at `now`; drops entries older than the guard window. */
export function markReload(path: string, now: number, storage: TStorage): void {
  const fresh = Object.fromEntries(
    Object.entries(readGuard(storage)).filter(([, at]) => now - at < RELOAD_GUARD_MS),
  );
  fresh[path] = now;
  try {
    storage.setItem(STORAGE_KEY.reloadGuard, JSON.stringify(fresh));
  } catch {
    // storage disabled: the guard cannot remember, so it errs on not reloading again
  }
}

/**
 * Reloads the page at `path` unless it was reloaded within the guard window. Returns whether it reloaded.
 * `reload` is window.location.assign/reload in the app and a spy in tests.
 */
export function guardedReload(
  path: string,
  reload: (path: string) => void,
  storage: TStorage = sessionStorage,
  now = Date.now(),
): boolean {
  if (!canReload(path, now, storage)) return false;
  markReload(path, now, storage);
  reload(path);
  return true;
}

/** Fetches the manifest; any failure counts as "no newer build". */
export async function checkForNewBuild(
  fetcher: typeof fetch = fetch,
  runningId: string = BUILD_ID,
  now = Date.now(),
): Promise<boolean> {
  try {
    const response = await fetcher(latestBuildUrl(now), { cache: 'no-store' });
    if (!response.ok) return false;
    return isNewerBuild(runningId, await response.json());
  } catch {
    return false;
  }
}

/** Messages of a failed dynamic import across browsers: the old chunks are gone after a deploy. */
export function isChunkLoadError(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|ChunkLoadError|Loading chunk [\w-]+ failed/i.test(
    text,
  );
}
