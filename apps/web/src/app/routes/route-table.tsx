/** Every route of SPEC §2 (and the API reference): name as the guard knows it, path, layout, title, rule, page. */
import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import type { TRouteMeta, TRouteName } from '../../lib/guard';
import { loadNamespaces, namespaces } from '../../lib/i18n';
import { lazyWithPreload } from '../../lib/lazy-with-preload';
import { SIGN_IN_NAMESPACES } from '../../lib/locale-chunks';

export type TRouteDef = {
  name: TRouteName;
  /** relative to the locale prefix; '' is the index route */
  path: string;
  meta: TRouteMeta;
  Page: TPage;
};

/** A lazy page that can also be asked to load ahead of rendering (main.tsx and AppShell do). */
export type TPage = ComponentType & {
  preload: () => Promise<unknown>;
  /**
   * Starts the requests the page's first screen makes (TPageOptions.prefetch), so their answers arrive with the
   * page's code rather than after its first render (main.tsx and AppShell, once the guard lets the user in).
   */
  prefetch: (queryClient: QueryClient, search: URLSearchParams) => Promise<void>;
  /** drawn with antd: AppShell puts antd's providers around it (components/antd-scope.tsx) */
  usesAntd: boolean;
};

/** A page's data prefetch: starts the page's first queries into the cache. */
export type TPrefetch = (queryClient: QueryClient, search: URLSearchParams) => void;

type TPageOptions = {
  /** the namespaces of its text; every namespace unless told */
  ns?: readonly string[];
  /** drawn with antd (the default) or with the plain controls of components/ui/ (the sign-in pages) */
  kit?: 'antd' | 'plain';
  /**
   * loads the page's TPrefetch from a module of its own, which imports only what the requests need (the query
   * options and the request client), so they start beside the page's code instead of after it (chunk-groups.ts
   * keeps that module's imports out of the console's file)
   */
  prefetch?: () => Promise<TPrefetch>;
};

const loadAntdScope = () => import('../../components/antd-scope');

/**
 * A lazy page for a named export (lib/lazy-with-preload.tsx), with the text it shows (the sign-in pages name theirs,
 * so the first page most visitors see does not load the console's text), antd's providers unless the page is
 * plain, and its data prefetch if any.
 */
function page<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  exportName: keyof M & string,
  { ns = namespaces, kit = 'antd', prefetch }: TPageOptions = {},
): TPage {
  let loading: Promise<M> | undefined;
  let loadingPrefetch: Promise<TPrefetch> | undefined;
  // Starts with the page's code (preload), so the requests need not wait for this module once the user is known.
  const loadPrefetch = prefetch && (() => (loadingPrefetch ??= prefetch()));
  // One load for everything; a failed one stays failed, as lazy() keeps it (the error screen reloads).
  const loadPage = () =>
    (loading ??= Promise.all([
      load(),
      loadNamespaces(ns),
      kit === 'antd' ? loadAntdScope() : undefined,
      loadPrefetch?.().catch(() => undefined),
    ]).then(([module]) => module));
  const Page = lazyWithPreload(() =>
    loadPage().then((module) => module[exportName] as ComponentType),
  );
  return Object.assign(Page, {
    prefetch: async (queryClient: QueryClient, search: URLSearchParams) => {
      if (loadPrefetch === undefined) return;
      (await loadPrefetch())(queryClient, search);
    },
    usesAntd: kit === 'antd',
  });
}

const auth = {
  LoginPage: page(() => import('../../features/auth/components/login-page'), 'LoginPage', {
    ns: SIGN_IN_NAMESPACES,
    kit: 'plain',
  }),
  RegisterPage: page(() => import('../../features/auth/components/register-page'), 'RegisterPage', {
    ns: SIGN_IN_NAMESPACES,
    kit: 'plain',
  }),
  RegisterConfirmPage: page(
    () => import('../../features/auth/components/register-confirm-page'),
    'RegisterConfirmPage',
  ),
  ActivateAccountPage: page(
    () => import('../../features/auth/components/activate-account-page'),
    'ActivateAccountPage',
  ),
  EmailConfirmPage: page(
    () => import('../../features/auth/components/email-confirm-page'),
    'EmailConfirmPage',
  ),
  ResetPasswordPage: page(
    () => import('../../features/auth/components/reset-password-page'),
    'ResetPasswordPage',
  ),
  ResetPasswordCheckingPage: page(
    () => import('../../features/auth/components/reset-password-checking-page'),
    'ResetPasswordCheckingPage',
  ),
  ResetPasswordSetPage: page(
    () => import('../../features/auth/components/reset-password-set-page'),
    'ResetPasswordSetPage',
  ),
  SetPasswordCheckingPage: page(
    () => import('../../features/auth/components/set-password-checking-page'),
    'SetPasswordCheckingPage',
  ),
  SetPasswordSetPage: page(
    () => import('../../features/auth/components/set-password-set-page'),
    'SetPasswordSetPage',
  ),
  FirstLoginPage: page(
    () => import('../../features/auth/components/first-login-page'),
    'FirstLoginPage',
  ),
};

const NotFoundPage = page(() => import('./not-found-page'), 'NotFoundPage');

const defaults = (name: TRouteName, extra: Partial<TRouteMeta> = {}): TRouteMeta => ({
  layout: 'default',
  titleKey: `layout:title.${name}`,
  ...extra,
});
const dashboard = (name: TRouteName): TRouteMeta => defaults(name, { layout: 'dashboard' });

export const ROUTES: readonly TRouteDef[] = [
  { name: 'index', path: '', meta: defaults('index'), Page: auth.LoginPage },
  { name: 'register', path: 'register', meta: defaults('register'), Page: auth.RegisterPage },
  {
    name: 'register-confirm',
    path: 'register-confirm',
    meta: defaults('register-confirm'),
    Page: auth.RegisterConfirmPage,
  },
  {
    name: 'activate-account',
    path: 'activate-account',
    meta: defaults('activate-account'),
    Page: auth.ActivateAccountPage,
  },
  {
    name: 'email-confirm',
    path: 'email-confirm',
    meta: defaults('email-confirm'),
    Page: auth.EmailConfirmPage,
  },
  {
    name: 'reset-password',
    path: 'reset-password',
    meta: defaults('reset-password'),
    Page: auth.ResetPasswordPage,
  },
  {
    name: 'reset-password-checking',
    path: 'reset-password/checking',
    meta: defaults('reset-password-checking'),
    Page: auth.ResetPasswordCheckingPage,
  },
  {
    name: 'reset-password-set',
    path: 'reset-password/set',
    meta: defaults('reset-password-set'),
    Page: auth.ResetPasswordSetPage,
  },
  {
    name: 'set-password-checking',
    path: 'set-password/checking',
    meta: defaults('set-password-checking'),
    Page: auth.SetPasswordCheckingPage,
  },
  {
    name: 'set-password-set',
    path: 'set-password/set',
    meta: defaults('set-password-set'),
    Page: auth.SetPasswordSetPage,
  },
  {
    name: 'third-party-login',
    path: 'third-party/login',
    meta: defaults('third-party-login'),
    Page: page(
      () => import('../../features/oauth/components/third-party-login-page'),
      'ThirdPartyLoginPage',
    ),
  },
  {
    name: 'auth-callback',
    path: 'auth/callback',
    meta: defaults('auth-callback'),
    Page: page(
      () => import('../../features/oauth/components/auth-callback-page'),
      'AuthCallbackPage',
    ),
  },
  {
    name: 'bind-callback',
    path: 'bind/callback',
    meta: defaults('bind-callback'),
    Page: page(
      () => import('../../features/oauth/components/bind-callback-page'),
      'BindCallbackPage',
    ),
  },
  {
    name: 'first-login',
    path: 'first-login',
    meta: defaults('first-login'),
    Page: auth.FirstLoginPage,
  },
  {
    name: 'choose-team',
    path: 'choose-team',
    meta: defaults('choose-team'),
    Page: page(() => import('../../features/team/components/choose-team-page'), 'ChooseTeamPage'),
  },
  {
    name: 'invite-member',
    path: 'invite-member',
    meta: defaults('invite-member'),
    Page: page(
      () => import('../../features/team/components/invite-member-page'),
      'InviteMemberPage',
    ),
  },
  {
    name: 'invoice-code',
    path: 'invoice/:code',
    meta: defaults('invoice-code', {
      // SPEC §2: the code is required.
      validate: (to) => typeof to.params.code === 'string' && to.params.code.trim().length > 0,
    }),
    Page: page(() => import('../../features/invoice/components/invoice-page'), 'InvoicePage'),
  },
  {
    name: 'login',
    path: 'login',
    meta: defaults('login'),
    Page: page(
      () => import('../../features/external/components/external-login-page'),
      'ExternalLoginPage',
    ),
  },
  {
    name: 'workbench',
    path: 'workbench/*',
    meta: defaults('workbench'),
    Page: page(() => import('../../features/external/components/workbench-page'), 'WorkbenchPage'),
  },
  { name: '404', path: '404', meta: defaults('404'), Page: NotFoundPage },
  {
    name: 'rpc',
    path: 'rpc',
    meta: dashboard('rpc'),
    Page: page(() => import('../../features/overview/components/overview-page'), 'OverviewPage'),
  },
  {
    name: 'rpc-billings',
    path: 'rpc/billings',
    meta: dashboard('rpc-billings'),
    Page: page(() => import('../../features/billing/components/billings-page'), 'BillingsPage'),
  },
  {
    name: 'rpc-billings-charge',
    path: 'rpc/billings/charge',
    meta: dashboard('rpc-billings-charge'),
    Page: page(
      () => import('../../features/billing/components/billing-charge-page'),
      'BillingChargePage',
    ),
  },
  {
    name: 'rpc-billings-invoice',
    path: 'rpc/billings/invoice',
    meta: dashboard('rpc-billings-invoice'),
    Page: page(
      () => import('../../features/billing/components/billing-invoice-page'),
      'BillingInvoicePage',
    ),
  },
  {
    name: 'rpc-dedicated-node',
    path: 'rpc/dedicated-node',
    meta: dashboard('rpc-dedicated-node'),
    Page: page(
      () => import('../../features/dedicated-node/components/dedicated-node-list-page'),
      'DedicatedNodeListPage',
    ),
  },
  {
    name: 'rpc-dedicated-node-new',
    path: 'rpc/dedicated-node/new',
    meta: dashboard('rpc-dedicated-node-new'),
    Page: page(
      () => import('../../features/dedicated-node/components/dedicated-node-new-page'),
      'DedicatedNodeNewPage',
    ),
  },
  {
    name: 'rpc-endpoint',
    path: 'rpc/endpoint',
    meta: dashboard('rpc-endpoint'),
    Page: page(() => import('../../features/api-keys/components/endpoint-page'), 'EndpointPage', {
      prefetch: () =>
        import('../../features/api-keys/api/prefetch-endpoint-page').then(
          (module) => module.prefetchEndpointPage,
        ),
    }),
  },
  {
    name: 'rpc-profile',
    path: 'rpc/profile',
    meta: dashboard('rpc-profile'),
    Page: page(() => import('../../features/profile/components/profile-page'), 'ProfilePage'),
  },
  {
    name: 'rpc-statistic',
    path: 'rpc/statistic',
    meta: dashboard('rpc-statistic'),
    Page: page(() => import('../../features/statistic/components/statistic-page'), 'StatisticPage'),
  },
  {
    name: 'rpc-team',
    path: 'rpc/team',
    meta: dashboard('rpc-team'),
    Page: page(() => import('../../features/team/components/team-page'), 'TeamPage'),
  },
  {
    name: 'rpc-team-logs',
    path: 'rpc/team/logs',
    meta: dashboard('rpc-team-logs'),
    Page: page(() => import('../../features/team/components/team-logs-page'), 'TeamLogsPage'),
  },
  {
    name: 'rpc-notifications',
    path: 'rpc/notifications',
    meta: dashboard('rpc-notifications'),
    Page: page(
      () => import('../../features/notices/components/notifications-page'),
      'NotificationsPage',
    ),
  },
  {
    // Not in SPEC §2: the console API's reference (issue 16), a dashboard page for signed-in users.
    name: 'rpc-api-reference',
    path: 'rpc/api-reference',
    meta: dashboard('rpc-api-reference'),
    Page: page(
      () => import('../../features/api-reference/components/api-reference-page'),
      'ApiReferencePage',
    ),
  },
  // Last: everything no other route matched.
  { name: 'slug', path: '*', meta: defaults('slug'), Page: NotFoundPage },
];
