/** Names of every cookie and browser-storage key the web app uses (SPEC §4, §9), in one place. */

export const COOKIE = {
  token: 'token',
  teamId: 'teamId',
  loginType: 'loginType',
  lang: 'lang',
  /** set by the register page while the user waits for the confirmation mail; cleared on sign-in */
  registerConfirm: 'registerConfirm',
} as const;

/** Cookie lifetimes in days (SPEC §9). */
export const COOKIE_DAYS = { token: 30, teamId: 30, loginType: 30, lang: 365 } as const;

export const STORAGE_KEY = {
  appConfig: 'app-config',
  userInfo: 'user-info',
  limitInfo: 'limit-info',
  selectedKeys: 'selected-keys',
  cachedStats: 'cached-stats',
  shownUpgrade: 'shown-upgrade',
  /** sessionStorage: path -> time of the last automatic reload (SPEC §4 reload guard) */
  reloadGuard: 'reload-guard',
  /** sessionStorage: an export (CSV) being prepared; a file_download notice ends it (SPEC §4) */
  exportSessionDeposit: 'export-session-deposit',
  exportSessionPurchase: 'export-session-purchase',
  /** sessionStorage: the third-party sign-in or binding this tab started ({ state, provider, purpose }) */
  oauthAttempt: 'oauth-attempt',
} as const;
