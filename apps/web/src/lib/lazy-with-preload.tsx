/**
 * React.lazy() that renders at once when its code has already loaded. A lazy component always suspends on its
 * first render, even with its promise long settled: React shows the fallback, and reveals the content no sooner
 * than 300 ms after a fallback appeared (its throttle against flashing). The dashboard's layout and page are loaded
 * before the first render (main.tsx), so they would wait that long for nothing.
 */
import type { ComponentType } from 'react';
import { createElement, lazy, useState } from 'react';

export type TLazyWithPreload<P extends object> = ComponentType<P> & {
  /** loads the code (once; a failed load stays failed, as lazy() keeps it) */
  preload: () => Promise<ComponentType<P>>;
};

export function lazyWithPreload<P extends object>(
  load: () => Promise<ComponentType<P>>,
): TLazyWithPreload<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  let loaded: ComponentType<P> | undefined;
  const preload = () =>
    (loading ??= load().then((component) => {
      loaded = component;
      return component;
    }));
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function WithPreload(props: P) {
    // Chosen once per mount: switching from the lazy wrapper to the loaded component would mount it again.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return createElement(Component, props);
  }
  return Object.assign(WithPreload, { preload });
}
