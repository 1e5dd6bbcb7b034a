import { RELOAD_GUARD_MS } from '@rpc/contract';
import { describe, expect, it, vi } from 'vitest';
import {
  canReload,
  checkForNewBuild,
  guardedReload,
  isChunkLoadError,
  isNewerBuild,
  latestBuildUrl,
  markReload,
} from './build-check';

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  const data = new Map<string, string>();
  return {
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
  };
}

describe('reload guard (SPEC §4: at most once per path within 10 s)', () => {
  it('allows the first reload of a path and refuses a second within the window', () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    expect(guardedReload('/rpc/endpoint', reload, storage, 1_000)).toBe(true);
    expect(guardedReload('/rpc/endpoint', reload, storage, 1_000 + RELOAD_GUARD_MS - 1)).toBe(
      false,
    );
    expect(reload).toHaveBeenCalledTimes(1);
    expect(reload).toHaveBeenCalledWith('/rpc/endpoint');
  });

  it('allows it again once the window has passed', () => {
    const storage = memoryStorage();
    markReload('/a', 0, storage);
    expect(canReload('/a', RELOAD_GUARD_MS - 1, storage)).toBe(false);
    expect(canReload('/a', RELOAD_GUARD_MS, storage)).toBe(true);
  });

  it('counts each path separately', () => {
    const storage = memoryStorage();
    markReload('/a', 0, storage);
    expect(canReload('/b', 1, storage)).toBe(true);
  });

  it('survives garbage in storage', () => {
    const storage = memoryStorage();
    storage.setItem('reload-guard', 'not json');
    expect(canReload('/a', 0, storage)).toBe(true);
  });

  it('uses sessionStorage by default', () => {
    const reload = vi.fn();
    sessionStorage.clear();
    expect(guardedReload('/x', reload)).toBe(true);
    expect(guardedReload('/x', reload)).toBe(false);
    expect(sessionStorage.getItem('reload-guard')).toContain('/x');
  });
});

describe('new build check (SPEC §4)', () => {
  it('asks for latest.json with a timestamp query', () => {
    expect(latestBuildUrl(123)).toBe('/builds/meta/latest.json?t=123');
  });

  it.each([
    ['same id', { id: 'b1', timestamp: 1 }, false],
    ['different id', { id: 'b2', timestamp: 2 }, true],
    ['empty id', { id: '' }, false],
    ['no id', {}, false],
    ['not an object', 'b2', false],
    ['null', null, false],
  ])('%s', (_name, latest, expected) => {
    expect(isNewerBuild('b1', latest)).toBe(expected);
  });

  it('fetches the manifest and compares ids', async () => {
    const fetcher = vi.fn(() =>
      Promise.resolve(new Response(JSON.stringify({ id: 'b2', timestamp: 5 }))),
    );
    await expect(checkForNewBuild(fetcher as unknown as typeof fetch, 'b1', 77)).resolves.toBe(
      true,
    );
    expect(fetcher).toHaveBeenCalledWith('/builds/meta/latest.json?t=77', { cache: 'no-store' });
    await expect(checkForNewBuild(fetcher as unknown as typeof fetch, 'b2', 78)).resolves.toBe(
      false,
    );
  });

  it('treats a failed or missing manifest as no new build', async () => {
    const down = vi.fn(() => Promise.reject(new TypeError('offline')));
    const missing = vi.fn(() => Promise.resolve(new Response('nope', { status: 404 })));
    await expect(checkForNewBuild(down as unknown as typeof fetch, 'b1')).resolves.toBe(false);
    await expect(checkForNewBuild(missing as unknown as typeof fetch, 'b1')).resolves.toBe(false);
  });

  it('recognises chunk-load failures', () => {
    expect(
      isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js')),
    ).toBe(true);
    expect(isChunkLoadError(new Error('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('x is undefined'))).toBe(false);
  });
});
