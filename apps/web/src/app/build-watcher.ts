/** Polls builds/meta/latest.json (SPEC §4) and notes when a newer build is out; the router reloads on the next navigation. */
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
  };
  const timer = setInterval(() => void check(), BUILD_CHECK_INTERVAL_MS);
  const onPreloadError = (event: Event) => {
    const path = `${window.location.pathname}${window.location.search}${window.location.hash}`;
    if (guardedReload(path, () => window.location.reload())) event.preventDefault();
  };
  window.addEventListener('vite:preloadError', onPreloadError);
  return () => {
    clearInterval(timer);
    window.removeEventListener('vite:preloadError', onPreloadError);
  };
}
