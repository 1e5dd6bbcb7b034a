/** The route tree (SPEC §2, every route also under /zh) and what happens around each navigation. */
import type { RouteObject } from 'react-router';
import { createBrowserRouter } from 'react-router';
import { setAppNavigator } from '../lib/app-navigation';
import { guardedReload } from '../lib/build-check';
import { i18n } from '../lib/i18n';
import { langFromPath } from '../lib/locale-path';
import { cancelAllPending } from '../lib/rpc-client';
import { AppShell } from './routes/app-shell';
import { RouteErrorScreen } from './routes/route-error-screen';
import type { TRouteHandle } from './routes/route-target';
import { leafHandle } from './routes/route-target';
import { ROUTES } from './routes/route-table';
import { isNewBuildPending } from './build-watcher';

function childRoutes(): RouteObject[] {
  return ROUTES.map(({ name, path, meta, Page }) => {
    const handle: TRouteHandle = { name, meta };
    return path === ''
      ? { index: true, handle, element: <Page /> }
      : { path, handle, element: <Page /> };
  });
}

export function buildRouteTree(): RouteObject[] {
  return [
    {
      path: '/',
      element: <AppShell />,
      errorElement: <RouteErrorScreen />,
      children: [...childRoutes(), { path: 'zh', children: childRoutes() }],
    },
  ];
}

type TRouter = ReturnType<typeof createBrowserRouter>;

export function createAppRouter(): TRouter {
  return wireRouter(createBrowserRouter(buildRouteTree()));
}

/** What happens around every navigation; separate from creation so tests wire a memory router the same way. */
export function wireRouter(router: TRouter): TRouter {
  setAppNavigator((path, options) => void router.navigate(path, options));

  let lastName = leafHandle(router.state.matches)?.handle.name;
  let lastPath = router.state.location.pathname;
  // Subscribed before RouterProvider renders, so calls of the old page are cancelled before the new
  // page mounts and starts its own (SPEC §9).
  router.subscribe((state) => {
    const name = leafHandle(state.matches)?.handle.name;
    if (name !== lastName) cancelAllPending('route-change');
    lastName = name;
    const { pathname, search, hash } = state.location;
    // The URL prefix is the language (SPEC §4); switch before the new page renders.
    const lang = langFromPath(pathname);
    if (i18n.language !== lang) void i18n.changeLanguage(lang);
    if (pathname !== lastPath && isNewBuildPending()) {
      // A newer build is out: load it with this navigation rather than in the middle of the user's work.
      guardedReload(`${pathname}${search}${hash}`, (path) => window.location.assign(path));
    }
    lastPath = pathname;
  });
  return router;
}
