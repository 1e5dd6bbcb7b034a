/**
 * Ant Design draws its own icons (select arrows, pagination arrows, message and result icons, clear buttons)
 * with the icon's English file name as aria-label ("down", "close-circle") whatever the language. This keeps
 * such icons out of the accessibility tree, and where an icon was all that named a control, names the control
 * in the page's language instead: from the title antd localises (pagination) or from the icons namespace.
 * Icons the app labels itself (any other aria-label, or aria-hidden) are left alone.
 */
import type { TFunction } from 'i18next';
import { i18n } from './i18n';

const ICON = 'span.anticon[aria-label]';
const CONTROL = [
  'button',
  'a[href]',
  '[role="button"]',
  '[role="link"]',
  '[role="menuitem"]',
  '[role="tab"]',
  '[role="switch"]',
  '[role="checkbox"]',
  '[role="radio"]',
  '[role="option"]',
].join(',');
/** A control this module named: the source of the name, so a language switch can name it again. */
const NAMED_BY = 'data-icon-name';
/** How far up a title antd puts on a wrapper (pagination's <li title>) still names the control. */
const TITLE_LEVELS = 2;

/** The icon's own English name when antd set it (aria-label equals the anticon-<name> class), else null. */
function defaultIconName(icon: Element): string | null {
  const label = icon.getAttribute('aria-label');
  return label && icon.classList.contains(`anticon-${label}`) ? label : null;
}

function hasOwnName(control: Element): boolean {
  if (control.getAttribute('aria-label')?.trim() || control.hasAttribute('aria-labelledby')) {
    return true;
  }
  if (control.getAttribute('title')?.trim()) return true;
  return (control.textContent ?? '').trim() !== '';
}

function nearbyTitle(control: Element): string | null {
  let node: Element | null = control.parentElement;
  for (let level = 0; node && level < TITLE_LEVELS; level += 1, node = node.parentElement) {
    const title = node.getAttribute('title')?.trim();
    if (title) return title;
  }
  return null;
}

/** The control's name for `source` ('title' or 'icon:<name>'); null when there is none to give. */
function nameFor(control: Element, source: string, t: TFunction): string | null {
  if (source === 'title') return nearbyTitle(control);
  const icon = source.slice('icon:'.length);
  const text = t(icon, { ns: 'icons', defaultValue: '' });
  return text || null;
}

function setIfChanged(element: Element, name: string, value: string): void {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

/** One pass over `root`: hides antd's default-labelled icons, names the controls they were naming. */
export function labelIcons(root: ParentNode, t: TFunction = i18n.t.bind(i18n)): void {
  for (const icon of root.querySelectorAll(ICON)) {
    const iconName = defaultIconName(icon);
    if (iconName === null) continue;
    const isExposed = icon.getAttribute('aria-hidden') !== 'true';
    const control = isExposed ? icon.parentElement?.closest(CONTROL) : null;
    // A control named by us before is named again: its icon may have changed (show / hide).
    if (control && (control.hasAttribute(NAMED_BY) || !hasOwnName(control))) {
      setIfChanged(control, NAMED_BY, nearbyTitle(control) ? 'title' : `icon:${iconName}`);
    }
    icon.setAttribute('aria-hidden', 'true');
    icon.removeAttribute('aria-label');
  }
  for (const control of root.querySelectorAll(`[${NAMED_BY}]`)) {
    const name = nameFor(control, control.getAttribute(NAMED_BY)!, t);
    if (name) setIfChanged(control, 'aria-label', name);
    else control.removeAttribute('aria-label');
  }
}

/** Keeps `root` labelled as it changes and when the language switches; returns the stop function. */
export function startIconLabels(root: HTMLElement = document.body): () => void {
  const run = () => labelIcons(root);
  const observer = new MutationObserver(run);
  // Titles change with the language (antd's locale); our own aria-label writes are not observed.
  observer.observe(root, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['title'],
  });
  i18n.on('languageChanged', run);
  run();
  return () => {
    observer.disconnect();
    i18n.off('languageChanged', run);
  };
}

let isWatchingPage = false;

/**
 * Keeps the whole page labelled from now on, once however often it is called: by whatever brings antd's icons in
 * (the popups, the antd pages' providers), so a page drawn without antd does not watch for icons it has none of.
 */
export function startIconLabelsOnce(): void {
  if (isWatchingPage || typeof document === 'undefined') return;
  isWatchingPage = true;
  startIconLabels();
}
