/**
 * The request client's and the session's way to antd's static popups, without antd in the first file every page
 * loads: lib/antd-popups.ts comes in with the first popup (or with any page that uses antd, which loads it too).
 * A popup asked for while it loads opens once it is in, unless the popups were closed meanwhile; if it cannot load
 * (the network is down, a deploy removed the file) a plain live region says the same.
 */
import type * as AntdPopups from './antd-popups';

type TPopups = typeof AntdPopups;
export type TPopupKind = 'error' | 'warning' | 'success';

let popups: TPopups | null = null;
let loading: Promise<TPopups> | null = null;
/** Bumped by every close: a popup still waiting for the code does not open after it. */
let closes = 0;

export function loadPopups(): Promise<TPopups> {
  loading ??= import('./antd-popups').then(
    (module) => (popups = module),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** Shows `content` as antd's message of `kind` for `durationS` seconds. */
export function showPopup(kind: TPopupKind, content: string, durationS: number): void {
  if (popups) {
    void popups.message.open({ type: kind, content, duration: durationS });
    return;
  }
  const asked = closes;
  loadPopups().then(
    (loaded) => {
      if (asked === closes) void loaded.message.open({ type: kind, content, duration: durationS });
    },
    () => {
      if (asked === closes) showPlainPopup(content, durationS);
    },
  );
}

/** Closes the messages (a sign-in that went through leaves the failed attempts' popups behind). */
export function closeMessages(): void {
  closes += 1;
  popups?.message.destroy();
  closePlainPopups();
}

/** Closes every popup and dialog antd has open (sign-out). */
export function closeAllPopups(): void {
  closeMessages();
  popups?.notification.destroy();
  popups?.Modal.destroyAll();
}

// --- The fallback when antd's popups cannot load ---

const PLAIN_ID = 'plain-popups';

function showPlainPopup(content: string, durationS: number): void {
  let region = document.getElementById(PLAIN_ID);
  if (!region) {
    region = document.createElement('div');
    region.id = PLAIN_ID;
    region.setAttribute('role', 'alert');
    Object.assign(region.style, {
      position: 'fixed',
      top: '8px',
      left: '50%',
      transform: 'translateX(-50%)',
      zIndex: '1010',
      display: 'flex',
      flexDirection: 'column',
      gap: '8px',
    });
    document.body.append(region);
  }
  const item = document.createElement('div');
  item.textContent = content;
  Object.assign(item.style, {
    padding: '9px 12px',
    background: '#fff',
    borderRadius: '8px',
    boxShadow: 'var(--box-shadow-secondary)',
    font: '14px/1.5714 var(--font-family)',
    color: 'var(--color-text)',
  });
  region.append(item);
  setTimeout(() => item.remove(), durationS * 1000);
}

function closePlainPopups(): void {
  document.getElementById(PLAIN_ID)?.replaceChildren();
}
