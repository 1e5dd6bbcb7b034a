/**
 * Layout "dashboard" (SPEC §2). Wide screens: a collapsible sidebar (SPEC §3/§9 app config) beside a
 * header with language, notices and user menu. Phones (below PHONE_MEDIA_QUERY): no sidebar; a header
 * button opens the same navigation in a drawer, the header keeps icons only, and nothing scrolls sideways.
 */
import { MenuFoldOutlined, MenuOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Drawer, Layout, theme } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { Fragment, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useActingAccountKey } from '../../lib/acting-account';
import { useAppConfig } from '../../lib/app-config';
import { LanguageSwitch } from '../language-switch';
import { Logo } from '../logo';
import { NotificationBell } from '../notification-bell';
import { MAIN_CONTENT_ID, SkipLink } from '../skip-link';
import { useMediaQuery } from '../use-media-query';
import { TeamSwitcher } from '../team-switcher';
import { UserMenu } from '../user-menu';
import { SidebarNav } from './sidebar-nav';
import { SiteFooter } from './site-footer';
import './dashboard-layout.css';

/** Below antd's md breakpoint (768 px) the sidebar becomes a drawer. */
export const PHONE_MEDIA_QUERY = '(max-width: 767.98px)';
export const OVERVIEW_PATH = '/rpc';
const NAV_ID = 'dashboard-nav';
const DRAWER_ID = 'dashboard-nav-drawer';
const COLLAPSED_WIDTH = 80;

/** Theme colours for the stylesheet, so a token change reaches the sidebar and its focus ring. */
function useLayoutColors(): CSSProperties {
  const { token } = theme.useToken();
  return {
    '--dash-bg': token.colorBgContainer,
    '--dash-border': token.colorSplit,
    '--dash-text': token.colorText,
    '--dash-hover-bg': token.colorFillTertiary,
    '--dash-active-bg': token.colorPrimaryBg,
    '--dash-primary': token.colorPrimary,
    '--dash-focus-ring': token.colorPrimary,
  } as CSSProperties;
}

/** `banner`: shown above every page's content (the app layer passes the top-up reminder). */
export function DashboardLayout({ children, banner }: { children: ReactNode; banner?: ReactNode }) {
  const { t } = useTranslation('layout');
  const { pathname } = useLocation();
  const colors = useLayoutColors();
  const isPhone = useMediaQuery(PHONE_MEDIA_QUERY);
  const collapsed = useAppConfig((s) => s.sidebarCollapse);
  const width = useAppConfig((s) => s.sidebarWidth);
  const setCollapsed = useAppConfig((s) => s.setSidebarCollapse);
  const [isDrawerOpen, setIsDrawerOpen] = useState(false);
  const drawerButtonRef = useRef<HTMLButtonElement>(null);
  // A page belongs to the account it was opened for: switching remounts it, so no state of one account
  // (an open drawer, a selected row, a cached answer) is shown for another.
  const actingKey = useActingAccountKey();

  // A followed link or a widened window closes the drawer.
  useEffect(() => {
    setIsDrawerOpen(false);
  }, [pathname, isPhone]);

  return (
    <Layout hasSider={!isPhone} className="dash" style={colors}>
      <SkipLink />
      {!isPhone && (
        <div className="dash-sider-column" style={{ width: collapsed ? COLLAPSED_WIDTH : width }}>
          <SidebarNav
            id={NAV_ID}
            className="dash-sider"
            isCollapsed={collapsed}
            head={
              <div className="dash-sider-head">
                <Logo compact={collapsed} to={OVERVIEW_PATH} />
              </div>
            }
          />
        </div>
      )}
      <Layout className="dash-body">
        <Layout.Header className="dash-header">
          {isPhone ? (
            <>
              <Button
                ref={drawerButtonRef}
                type="text"
                icon={<MenuOutlined aria-hidden />}
                aria-label={t('sidebar.open')}
                aria-haspopup="dialog"
                aria-expanded={isDrawerOpen}
                aria-controls={isDrawerOpen ? DRAWER_ID : undefined}
                onClick={() => setIsDrawerOpen(true)}
              />
              <Logo to={OVERVIEW_PATH} />
            </>
          ) : (
            <Button
              type="text"
              icon={
                collapsed ? <MenuUnfoldOutlined aria-hidden /> : <MenuFoldOutlined aria-hidden />
              }
              aria-label={collapsed ? t('sidebar.expand') : t('sidebar.collapse')}
              aria-expanded={!collapsed}
              aria-controls={NAV_ID}
              onClick={() => setCollapsed(!collapsed)}
            />
          )}
          <div className="dash-header-spacer" />
          <LanguageSwitch />
          <NotificationBell />
          <TeamSwitcher isCompact={isPhone} />
          <UserMenu isCompact={isPhone} />
        </Layout.Header>
        <Layout.Content id={MAIN_CONTENT_ID} tabIndex={-1} className="dash-content">
          <Fragment key={actingKey}>
            {banner}
            {children}
          </Fragment>
        </Layout.Content>
        <SiteFooter />
      </Layout>
      {isPhone && (
        <Drawer
          id={DRAWER_ID}
          rootClassName="dash-drawer"
          // The drawer renders outside .dash: it needs the colours too.
          rootStyle={colors}
          placement="left"
          width={280}
          open={isDrawerOpen}
          onClose={() => setIsDrawerOpen(false)}
          afterOpenChange={(open) => {
            if (!open) drawerButtonRef.current?.focus();
          }}
          title={t('sidebar.drawerTitle')}
          styles={{ body: { padding: '8px 0' } }}
        >
          <SidebarNav id={`${NAV_ID}-drawer`} onNavigate={() => setIsDrawerOpen(false)} />
        </Drawer>
      )}
    </Layout>
  );
}
