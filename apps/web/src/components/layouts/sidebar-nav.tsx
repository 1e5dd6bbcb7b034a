/**
 * The dashboard's main navigation: a plain list of links (one tab stop each, none for the list), used by
 * the sidebar and by the phone drawer.
 */
import {
  ApiOutlined,
  BarChartOutlined,
  ClusterOutlined,
  HomeOutlined,
  ReadOutlined,
  TeamOutlined,
  UserOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { Badge, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { LocalizedLink, stripLocale } from '../../lib/locale-path';
import { useSession } from '../../lib/session';
import { VisuallyHidden } from '../visually-hidden';

type TNavItem = {
  key: string;
  path: string;
  icon: ReactNode;
  /** only the path itself, not the pages under it (the overview is /rpc, the parent of every page) */
  isExact?: boolean;
};

export const NAV: readonly TNavItem[] = [
  { key: 'overview', path: '/rpc', icon: <HomeOutlined aria-hidden />, isExact: true },
  { key: 'endpoint', path: '/rpc/endpoint', icon: <ApiOutlined aria-hidden /> },
  { key: 'statistic', path: '/rpc/statistic', icon: <BarChartOutlined aria-hidden /> },
  { key: 'billing', path: '/rpc/billings', icon: <WalletOutlined aria-hidden /> },
  { key: 'dedicatedNode', path: '/rpc/dedicated-node', icon: <ClusterOutlined aria-hidden /> },
  { key: 'team', path: '/rpc/team', icon: <TeamOutlined aria-hidden /> },
  { key: 'profile', path: '/rpc/profile', icon: <UserOutlined aria-hidden /> },
  { key: 'apiReference', path: '/rpc/api-reference', icon: <ReadOutlined aria-hidden /> },
];

/** The nav entry a path belongs to: /rpc/billings/charge is under Billing, /rpc is the overview. */
export function activeNavKey(pathname: string): string | undefined {
  const bare = stripLocale(pathname).replace(/\/+$/, '') || '/';
  return NAV.find(
    (item) => bare === item.path || (!item.isExact && bare.startsWith(`${item.path}/`)),
  )?.key;
}

export type TSidebarNavProps = {
  id: string;
  /** icons only, names in tooltips (the collapsed sidebar) */
  isCollapsed?: boolean;
  /** after a link is followed (the drawer closes) */
  onNavigate?: () => void;
  /** above the links, inside the landmark (the sidebar's logo) */
  head?: ReactNode;
  className?: string;
};

export function SidebarNav({
  id,
  isCollapsed = false,
  onNavigate,
  head,
  className,
}: TSidebarNavProps) {
  const { t } = useTranslation('layout');
  const { pathname } = useLocation();
  const active = activeNavKey(pathname);
  // Invitations waiting (profile hasInvite): a dot on Team, named for screen readers.
  const hasInvite = useSession((s) => !!s.user?.hasInvite);
  return (
    <nav
      id={id}
      aria-label={t('nav.label')}
      className={className ? `dash-nav ${className}` : 'dash-nav'}
      data-collapsed={isCollapsed || undefined}
    >
      {head}
      <ul>
        {NAV.map((item) => {
          const hasDot = item.key === 'team' && hasInvite;
          const label = t(`nav.${item.key}`);
          const link = (
            <LocalizedLink
              to={item.path}
              className="dash-nav-link"
              aria-current={item.key === active ? 'page' : undefined}
              onClick={onNavigate}
            >
              {hasDot ? (
                <Badge dot offset={[-2, 2]}>
                  {item.icon}
                </Badge>
              ) : (
                item.icon
              )}
              {isCollapsed ? (
                <VisuallyHidden>{label}</VisuallyHidden>
              ) : (
                <span className="dash-nav-label">{label}</span>
              )}
              {hasDot ? <VisuallyHidden>{t('nav.invitesPending')}</VisuallyHidden> : null}
            </LocalizedLink>
          );
          return (
            <li key={item.key}>
              {isCollapsed ? (
                <Tooltip title={label} placement="right">
                  {link}
                </Tooltip>
              ) : (
                link
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
