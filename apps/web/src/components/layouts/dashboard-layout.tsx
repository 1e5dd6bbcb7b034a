import {
  ApiOutlined,
  BarChartOutlined,
  ClusterOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  TeamOutlined,
  UserOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import type { MenuProps } from 'antd';
import { Button, Layout, Menu } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useAppConfig } from '../../lib/app-config';
import { LocalizedLink, stripLocale } from '../../lib/locale-path';
import { LanguageSwitch } from '../language-switch';
import { Logo } from '../logo';
import { NotificationBell } from '../notification-bell';
import { MAIN_CONTENT_ID, SkipLink } from '../skip-link';
import { UserMenu } from '../user-menu';

const NAV = [
  { key: 'endpoint', path: '/rpc/endpoint', icon: <ApiOutlined aria-hidden /> },
  { key: 'statistic', path: '/rpc/statistic', icon: <BarChartOutlined aria-hidden /> },
  { key: 'billing', path: '/rpc/billings', icon: <WalletOutlined aria-hidden /> },
  { key: 'dedicatedNode', path: '/rpc/dedicated-node', icon: <ClusterOutlined aria-hidden /> },
  { key: 'team', path: '/rpc/team', icon: <TeamOutlined aria-hidden /> },
  { key: 'profile', path: '/rpc/profile', icon: <UserOutlined aria-hidden /> },
] as const;

/** The nav entry a path belongs to: /rpc/billings/charge is under Billing. */
export function activeNavKey(pathname: string): string | undefined {
  const bare = stripLocale(pathname);
  return NAV.find((item) => bare === item.path || bare.startsWith(`${item.path}/`))?.key;
}

/** Layout "dashboard" (SPEC §2): collapsible sidebar (SPEC §9 app config) and a header with user menu. */
export function DashboardLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation('layout');
  const { pathname } = useLocation();
  const collapsed = useAppConfig((s) => s.sidebarCollapse);
  const width = useAppConfig((s) => s.sidebarWidth);
  const setCollapsed = useAppConfig((s) => s.setSidebarCollapse);
  const active = activeNavKey(pathname);

  const items: MenuProps['items'] = NAV.map((item) => ({
    key: item.key,
    icon: item.icon,
    label: (
      <LocalizedLink to={item.path} aria-current={item.key === active ? 'page' : undefined}>
        {t(`nav.${item.key}`)}
      </LocalizedLink>
    ),
  }));

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <SkipLink />
      <Layout.Sider
        width={width}
        collapsed={collapsed}
        collapsible
        trigger={null}
        theme="light"
        style={{ borderInlineEnd: '1px solid rgba(5, 5, 5, 0.06)', minHeight: '100vh' }}
      >
        <div style={{ height: 64, display: 'flex', alignItems: 'center', paddingInline: 24 }}>
          <Logo compact={collapsed} />
        </div>
        <nav aria-label={t('nav.label')} id="dashboard-nav">
          <Menu mode="inline" items={items} selectedKeys={active ? [active] : []} />
        </nav>
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{
            display: 'flex',
            alignItems: 'center',
            gap: 8,
            background: 'transparent',
            paddingInline: 16,
          }}
        >
          <Button
            type="text"
            icon={collapsed ? <MenuUnfoldOutlined aria-hidden /> : <MenuFoldOutlined aria-hidden />}
            aria-label={collapsed ? t('sidebar.expand') : t('sidebar.collapse')}
            aria-expanded={!collapsed}
            aria-controls="dashboard-nav"
            onClick={() => setCollapsed(!collapsed)}
          />
          <div style={{ flex: 1 }} />
          <LanguageSwitch />
          <NotificationBell />
          <UserMenu />
        </Layout.Header>
        <Layout.Content id={MAIN_CONTENT_ID} tabIndex={-1} style={{ padding: 24 }}>
          {children}
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
