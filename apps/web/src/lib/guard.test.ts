import { describe, expect, it } from 'vitest';
import type {
  TGuardDecision,
  TGuardState,
  TNavigationCheck,
  TRouteMeta,
  TRouteName,
  TRouteTarget,
  TScrollDecision,
} from './guard';
import {
  checkNavigationTarget,
  decideNavigation,
  decideScroll,
  hasDangerousProtocol,
} from './guard';
import { makeUser } from '../test/fixtures';

const user = makeUser;

const team = (teamId: string) => ({ teamId, teamName: `Team ${teamId}`, role: 'viewer' as const });

const PATHS: Record<TRouteName, string> = {
  index: '/',
  register: '/register',
  'register-confirm': '/register-confirm',
  'activate-account': '/activate-account',
  'email-confirm': '/email-confirm',
  'reset-password': '/reset-password',
  'reset-password-checking': '/reset-password/checking',
  'reset-password-set': '/reset-password/set',
  'set-password-checking': '/set-password/checking',
  'set-password-set': '/set-password/set',
  'third-party-login': '/third-party/login',
  'auth-callback': '/auth/callback',
  'bind-callback': '/bind/callback',
  'first-login': '/first-login',
  'choose-team': '/choose-team',
  'invite-member': '/invite-member',
  'invoice-code': '/invoice/abc',
  login: '/login',
  workbench: '/workbench/x',
  '404': '/404',
  slug: '/no/such/page',
  rpc: '/rpc',
  'rpc-billings': '/rpc/billings',
  'rpc-billings-charge': '/rpc/billings/charge',
  'rpc-billings-invoice': '/rpc/billings/invoice',
  'rpc-dedicated-node': '/rpc/dedicated-node',
  'rpc-dedicated-node-new': '/rpc/dedicated-node/new',
  'rpc-endpoint': '/rpc/endpoint',
  'rpc-profile': '/rpc/profile',
  'rpc-statistic': '/rpc/statistic',
  'rpc-team': '/rpc/team',
  'rpc-team-logs': '/rpc/team/logs',
  'rpc-notifications': '/rpc/notifications',
  'rpc-api-reference': '/rpc/api-reference',
};

type TTo = {
  query?: Record<string, string>;
  params?: Record<string, string | undefined>;
  lang?: 'en' | 'zh';
  meta?: Partial<TRouteMeta>;
  search?: string;
};

function route(name: TRouteName, over: TTo = {}): TRouteTarget {
  const lang = over.lang ?? 'en';
  const bare = PATHS[name];
  const path = lang === 'zh' ? (bare === '/' ? '/zh' : `/zh${bare}`) : bare;
  return {
    name,
    path,
    fullPath: `${path}${over.search ?? ''}`,
    query: over.query ?? {},
    params: over.params ?? {},
    hash: '',
    lang,
    meta: { layout: 'default', titleKey: 'x', ...over.meta },
  };
}

const guest: TGuardState = { token: null, user: null, loginType: null, teamIdCookie: null };
const personal: TGuardState = {
  token: 't',
  user: user(),
  loginType: 'personal',
  teamIdCookie: null,
};
const uninitialised: TGuardState = { ...personal, user: user({ initialize: false }) };
const teamLogin: TGuardState = {
  token: 't',
  user: user({ teamList: [team('T1')] }),
  loginType: 'team',
  teamIdCookie: 'T1',
};

const allow: TGuardDecision = { kind: 'allow' };
const to = (path: string): TGuardDecision => ({ kind: 'redirect', to: path });

type TCase = [rule: string, target: TRouteTarget, state: TGuardState, expected: TGuardDecision];

const PUBLIC: TRouteName[] = [
  'index',
  'register',
  'register-confirm',
  'third-party-login',
  'auth-callback',
  'reset-password',
  'reset-password-checking',
  'reset-password-set',
  'set-password-checking',
  'set-password-set',
  'bind-callback',
  'activate-account',
  'invite-member',
  'slug',
  '404',
  'invoice-code',
];
const PRIVATE = (Object.keys(PATHS) as TRouteName[]).filter((n) => !PUBLIC.includes(n));
const SIGNED_IN_REDIRECT: TRouteName[] = [
  'index',
  'reset-password',
  'reset-password-checking',
  'register',
  'auth-callback',
  'third-party-login',
  'set-password-checking',
  'set-password-set',
];

const cases: TCase[] = [
  // Without a token: public list allowed, anything else goes to /.
  ...PUBLIC.map((n): TCase => [`guest may open public ${n}`, route(n), guest, allow]),
  ...PRIVATE.map((n): TCase => [`guest is sent from ${n} to /`, route(n), guest, to('/')]),
  ['guest redirect keeps the /zh prefix', route('rpc-endpoint', { lang: 'zh' }), guest, to('/zh')],

  // Signed in: account pages redirect to /rpc/endpoint.
  ...SIGNED_IN_REDIRECT.map((n): TCase => [
    `signed-in user is sent from ${n}`,
    route(n),
    personal,
    to('/rpc/endpoint'),
  ]),
  [
    'signed-in redirect keeps the /zh prefix',
    route('index', { lang: 'zh' }),
    personal,
    to('/zh/rpc/endpoint'),
  ],
  [
    'signing in on /?redirect= goes where the user was headed',
    route('index', { query: { redirect: '/rpc/dedicated-node' } }),
    personal,
    to('/rpc/dedicated-node'),
  ],
  [
    'signing in on /zh?redirect= keeps the /zh prefix',
    route('index', { lang: 'zh', query: { redirect: '/rpc/statistic?range=7d' } }),
    personal,
    to('/zh/rpc/statistic?range=7d'),
  ],
  [
    'a first sign-in (no login type) on /?redirect= becomes Personal on the way there, not at /rpc/endpoint',
    route('index', { lang: 'zh', query: { redirect: '/rpc/billings/invoice' } }),
    { ...personal, loginType: null },
    {
      kind: 'redirect',
      to: '/zh/rpc/billings/invoice',
      effects: [{ kind: 'set-login-type', loginType: 'personal' }],
    },
  ],
  [
    'a first sign-in on /?redirect= by a team user with one team chooses it on the way there',
    route('index', { query: { redirect: '/rpc/billings' } }),
    { ...personal, loginType: null, user: user({ userType: 'team', teamList: [team('A')] }) },
    {
      kind: 'redirect',
      to: '/rpc/billings',
      effects: [
        { kind: 'choose-team', teamId: 'A' },
        { kind: 'set-login-type', loginType: 'team' },
      ],
    },
  ],
  [
    'a first sign-in on /?redirect= by a user with teams still chooses a team first',
    route('index', { query: { redirect: '/rpc/billings' } }),
    { ...personal, loginType: null, user: user({ teamList: [team('T1')], hasTeam: true }) },
    to('/choose-team'),
  ],
  [
    'a first sign-in on /?redirect=/invite-member by a user with teams goes back to the invitation',
    route('index', { query: { redirect: '/invite-member?code=abc' } }),
    { ...personal, loginType: null, user: user({ teamList: [team('T1')], hasTeam: true }) },
    to('/invite-member?code=abc'),
  ],
  [
    'a first sign-in without a way back goes home as before',
    route('index'),
    { ...personal, loginType: null },
    to('/rpc/endpoint'),
  ],
  [
    'an unsafe redirect goes home instead',
    route('index', { query: { redirect: '//evil.example/rpc' } }),
    personal,
    to('/rpc/endpoint'),
  ],
  [
    'a redirect outside the dashboard goes home instead',
    route('index', { query: { redirect: '/register' } }),
    personal,
    to('/rpc/endpoint'),
  ],
  [
    'third-party-login?from=admin clears the token and shows the page',
    route('third-party-login', { query: { from: 'admin' } }),
    personal,
    { kind: 'clear-token-and-allow' },
  ],
  [
    'from=admin without a token is just a public page',
    route('third-party-login', { query: { from: 'admin' } }),
    guest,
    allow,
  ],
  [
    'third-party-login from elsewhere still redirects',
    route('third-party-login', { query: { from: 'mail' } }),
    personal,
    to('/rpc/endpoint'),
  ],
  ['register-confirm stays reachable signed in', route('register-confirm'), personal, allow],
  ['activate-account stays reachable signed in', route('activate-account'), uninitialised, allow],
  [
    'activate-account reachable even before the user is known',
    route('activate-account'),
    { ...personal, user: null },
    allow,
  ],

  // Session restore.
  [
    'token but no user: restore the session first',
    route('rpc-endpoint'),
    { ...personal, user: null },
    { kind: 'load-user' },
  ],

  // First login.
  [
    'uninitialised personal user goes to /first-login',
    route('rpc-billings'),
    uninitialised,
    to('/first-login'),
  ],
  [
    'uninitialised personal user may stay on first-login',
    route('first-login'),
    uninitialised,
    allow,
  ],
  [
    'initialised user opening first-login goes to /rpc/endpoint',
    route('first-login'),
    personal,
    to('/rpc/endpoint'),
  ],
  [
    'team login opening first-login goes to /rpc/endpoint',
    route('first-login'),
    teamLogin,
    to('/rpc/endpoint'),
  ],
  [
    'uninitialised team member in team login is not sent to first-login',
    route('rpc-team'),
    { ...teamLogin, user: user({ initialize: false, teamList: [team('T1')] }) },
    allow,
  ],

  // Team login.
  [
    'team login without teamId cookie goes to /choose-team',
    route('rpc-endpoint'),
    { ...teamLogin, teamIdCookie: null },
    to('/choose-team'),
  ],
  [
    'team login without teamId may open choose-team',
    route('choose-team'),
    { ...teamLogin, teamIdCookie: null },
    allow,
  ],
  ['team login with teamId opens dashboard pages', route('rpc-team-logs'), teamLogin, allow],

  // No login type yet.
  [
    'no login type, personal user with teams goes to /choose-team',
    route('rpc-endpoint'),
    { ...personal, loginType: null, user: user({ teamList: [team('T1')], hasTeam: true }) },
    to('/choose-team'),
  ],
  [
    'no login type, personal user without teams becomes Personal and goes to /rpc/endpoint',
    route('rpc-statistic'),
    { ...personal, loginType: null },
    {
      kind: 'redirect',
      to: '/rpc/endpoint',
      effects: [{ kind: 'set-login-type', loginType: 'personal' }],
    },
  ],
  [
    'no login type, personal user already on /rpc/endpoint just becomes Personal',
    route('rpc-endpoint'),
    { ...personal, loginType: null },
    { kind: 'allow', effects: [{ kind: 'set-login-type', loginType: 'personal' }] },
  ],
  [
    'no login type, team user with several teams goes to /choose-team',
    route('rpc-endpoint'),
    {
      ...personal,
      loginType: null,
      user: user({ userType: 'team', teamList: [team('A'), team('B')] }),
    },
    to('/choose-team'),
  ],
  [
    'no login type, team user with one team: team chosen, login type Team',
    route('rpc-billings'),
    { ...personal, loginType: null, user: user({ userType: 'team', teamList: [team('A')] }) },
    {
      kind: 'allow',
      effects: [
        { kind: 'choose-team', teamId: 'A' },
        { kind: 'set-login-type', loginType: 'team' },
      ],
    },
  ],
  [
    'no login type, team user with one team skips first-login even when uninitialised',
    route('rpc-endpoint'),
    {
      ...personal,
      loginType: null,
      user: user({ userType: 'team', initialize: false, teamList: [team('A')] }),
    },
    {
      kind: 'allow',
      effects: [
        { kind: 'choose-team', teamId: 'A' },
        { kind: 'set-login-type', loginType: 'team' },
      ],
    },
  ],

  // Validate rule.
  [
    'validate false: 404 with the full path',
    route('invoice-code', {
      params: { code: '' },
      search: '?x=1',
      meta: { validate: (t) => !!t.params.code },
    }),
    guest,
    {
      kind: 'error',
      status: 404,
      message: 'Page Not Found: /invoice/abc?x=1',
      notFoundPath: '/invoice/abc?x=1',
    },
  ],
  [
    'validate with its own status and message',
    route('rpc-team', { meta: { validate: () => ({ status: 403, message: 'Not your team' }) } }),
    teamLogin,
    { kind: 'error', status: 403, message: 'Not your team' },
  ],
  [
    'validate true passes on to the other rules',
    route('rpc-team', { meta: { validate: () => true } }),
    guest,
    to('/'),
  ],

  // invoice-code skips the guard.
  ['invoice page for a guest', route('invoice-code', { params: { code: 'abc' } }), guest, allow],
  [
    'invoice page for an uninitialised user (no first-login detour)',
    route('invoice-code', { params: { code: 'abc' } }),
    uninitialised,
    allow,
  ],
  [
    'invoice page while the user is unknown (no restore needed)',
    route('invoice-code', { params: { code: 'abc' } }),
    { ...personal, user: null },
    allow,
  ],

  // Other public pages while signed in need no login state.
  ['not-found while signed in', route('slug'), uninitialised, allow],
  [
    'invite-member while signed in',
    route('invite-member'),
    { ...teamLogin, teamIdCookie: null },
    allow,
  ],
  ['ordinary dashboard page for a personal user', route('rpc-profile'), personal, allow],
  ['zh dashboard page', route('rpc-profile', { lang: 'zh' }), personal, allow],
  ['notifications list for a personal user', route('rpc-notifications'), personal, allow],
  // Not a SPEC §2 route: the console API reference is a dashboard page like the others.
  ['API reference for a personal user', route('rpc-api-reference'), personal, allow],
  ['API reference in a team login', route('rpc-api-reference'), teamLogin, allow],
];

describe('decideNavigation (SPEC §2 route guard)', () => {
  it.each(cases)('%s', (_rule, target, state, expected) => {
    expect(decideNavigation(target, state)).toEqual(expected);
  });

  it('has a case for every route name', () => {
    const covered = new Set(cases.map(([, target]) => target.name));
    expect([...covered].sort()).toEqual((Object.keys(PATHS) as TRouteName[]).sort());
  });
});

const policy = { origin: 'https://console.example.com', allowedHosts: ['docs.example.com'] };

const navigationCases: [string, string, TNavigationCheck][] = [
  [
    'relative path is internal',
    '/rpc/endpoint?x=1#a',
    { kind: 'internal', path: '/rpc/endpoint?x=1#a' },
  ],
  [
    'same origin absolute URL is internal',
    'https://console.example.com/zh',
    { kind: 'internal', path: '/zh' },
  ],
  [
    'allow-listed host is external',
    'https://docs.example.com/start',
    { kind: 'external', href: 'https://docs.example.com/start' },
  ],
  [
    'unknown host refused',
    'https://evil.example.net/',
    { kind: 'refuse', reason: 'external-not-allowed' },
  ],
  [
    'protocol-relative unknown host refused',
    '//evil.example.net/x',
    { kind: 'refuse', reason: 'external-not-allowed' },
  ],
  [
    'look-alike host refused',
    'https://docs.example.com.evil.net/',
    { kind: 'refuse', reason: 'external-not-allowed' },
  ],
  ['javascript: refused', 'javascript:alert(1)', { kind: 'refuse', reason: 'dangerous-protocol' }],
  [
    'JavaScript: with case and whitespace refused',
    ' Java\tScript:alert(1)',
    { kind: 'refuse', reason: 'dangerous-protocol' },
  ],
  [
    'data: refused',
    'data:text/html,<script>1</script>',
    { kind: 'refuse', reason: 'dangerous-protocol' },
  ],
  ['vbscript: refused', 'VBSCRIPT:msgbox(1)', { kind: 'refuse', reason: 'dangerous-protocol' }],
  ['file: refused', 'file:///etc/passwd', { kind: 'refuse', reason: 'dangerous-protocol' }],
  ['ftp: refused', 'ftp://docs.example.com/x', { kind: 'refuse', reason: 'dangerous-protocol' }],
];

describe('checkNavigationTarget (SPEC §2 external URLs and protocols)', () => {
  it.each(navigationCases)('%s', (_rule, target, expected) => {
    expect(checkNavigationTarget(target, policy)).toEqual(expected);
  });

  it('refuses every external host when nothing is allow-listed', () => {
    expect(checkNavigationTarget('https://docs.example.com/', { origin: policy.origin })).toEqual({
      kind: 'refuse',
      reason: 'external-not-allowed',
    });
  });

  it('spots dangerous protocols hidden by control characters', () => {
    expect(hasDangerousProtocol('\u0001javascript:x')).toBe(true);
    expect(hasDangerousProtocol('/javascript:x')).toBe(false);
  });
});

const scrollCases: [
  string,
  { pathname: string; hash: string } | null,
  { pathname: string; hash: string },
  boolean,
  TScrollDecision,
][] = [
  ['first load goes to top', null, { pathname: '/rpc', hash: '' }, false, { kind: 'top' }],
  [
    'route change goes to top',
    { pathname: '/rpc', hash: '' },
    { pathname: '/rpc/team', hash: '' },
    false,
    { kind: 'top' },
  ],
  [
    'route that opts out keeps its position',
    { pathname: '/rpc', hash: '' },
    { pathname: '/rpc/team', hash: '' },
    true,
    { kind: 'none' },
  ],
  [
    'query-only change keeps the position',
    { pathname: '/rpc/team', hash: '' },
    { pathname: '/rpc/team', hash: '' },
    false,
    { kind: 'none' },
  ],
  [
    'hash anchor is scrolled to',
    { pathname: '/rpc', hash: '' },
    { pathname: '/rpc/team', hash: '#members' },
    false,
    { kind: 'anchor', id: 'members' },
  ],
  [
    'hash anchor wins over opting out',
    null,
    { pathname: '/rpc', hash: '#top%20part' },
    true,
    { kind: 'anchor', id: 'top part' },
  ],
];

describe('decideScroll (SPEC §2 scroll rule)', () => {
  it.each(scrollCases)('%s', (_rule, from, toLocation, keepScroll, expected) => {
    expect(decideScroll(from, toLocation, { keepScroll })).toEqual(expected);
  });
});
