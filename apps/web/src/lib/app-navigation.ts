/** Lets code outside React (the request client, the session) navigate; the router plugs itself in at start. */

export type TAppNavigator = (path: string, options?: { replace?: boolean }) => void;

let navigator: TAppNavigator = (path) => window.location.assign(path);

export function setAppNavigator(next: TAppNavigator): void {
  navigator = next;
}

export function appNavigate(path: string, options?: { replace?: boolean }): void {
  navigator(path, options);
}
