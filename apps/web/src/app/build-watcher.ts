/**
 * Polls builds/meta/latest.json (SPEC §4). When a newer build is out the page reloads: at once if the tab
 * is in the background, otherwise on the next navigation (the router), so a half-filled form is not lost.
 * Either way the reload guard allows it once per path within 10 s.
 */
import {
  BUILD_CHECK_INTERVAL_MS,
  BUILD_ID,
  checkForNewBuild,
  guardedReload,
} from '../lib/build-check';

let newBuildPending = false;

export function isNewBuildPending(): boolean {
  return newBuildPending;
}

/** Starts polling; returns the stop function. Chunk-load failures from Vite also reload (guarded). */
export function startBuildWatcher(): () => void {
  if (import.meta.env.DEV) return () => {};
  const check = async () => {
    if (newBuildPending) return;
    newBuildPending = await checkForNewBuild(fetch, BUILD_ID);
    if (newBuildPending && document.visibilityState === 'hidden') reloadHere();
  };
  const reloadHere = () => {
    const path = `${window.location.pathname}${window.location.search}${window.location.hash}`;
    return guardedReload(path, () => window.location.reload());
  };
  const timer = setInterval(() => void check(), BUILD_CHECK_INTERVAL_MS);
  const onPreloadError = (event: Event) => {
    if (reloadHere()) event.preventDefault();
  };
  window.addEventListener('vite:preloadError', onPreloadError);
  return () => {
    clearInterval(timer);
    window.removeEventListener('vite:preloadError', onPreloadError);
  };
}
