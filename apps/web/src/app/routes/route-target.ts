/** Builds the guard's view of a navigation from react-router's matches and location. */
import type { Location, UIMatch } from 'react-router';
import type { TRouteMeta, TRouteName, TRouteTarget } from '../../lib/guard';
import { langFromPath } from '../../lib/locale-path';

export type TRouteHandle = { name: TRouteName; meta: TRouteMeta };

export function isRouteHandle(handle: unknown): handle is TRouteHandle {
  return !!handle && typeof handle === 'object' && 'name' in handle && 'meta' in handle;
}

type TMatchLike = Pick<UIMatch, 'params'> & { handle?: unknown; route?: { handle?: unknown } };

/** The deepest match that is one of our named routes (UI matches carry handle, router-state matches route.handle). */
export function leafHandle(matches: readonly TMatchLike[]) {
  for (let i = matches.length - 1; i >= 0; i--) {
    const match = matches[i]!;
    const handle = match.handle ?? match.route?.handle;
    if (isRouteHandle(handle)) return { handle, params: match.params };
  }
  return undefined;
}

export function toRouteTarget(
  handle: TRouteHandle,
  params: Record<string, string | undefined>,
  location: Pick<Location, 'pathname' | 'search' | 'hash'>,
): TRouteTarget {
  return {
    name: handle.name,
    meta: handle.meta,
    path: location.pathname,
    fullPath: `${location.pathname}${location.search}${location.hash}`,
    query: Object.fromEntries(new URLSearchParams(location.search)),
    params,
    hash: location.hash,
    lang: langFromPath(location.pathname),
  };
}
