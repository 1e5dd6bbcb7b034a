import { Layout, theme } from 'antd';
import type { ReactNode } from 'react';
import { PlainLanguageSwitch } from '../plain-language-switch';
import { Logo } from '../logo';
import { MAIN_CONTENT_ID, SkipLink } from '../skip-link';
import { SiteFooter } from './site-footer';

/**
 * The card around a public page, drawn as antd's borderless Card draws it. Not the Card itself: it imports Tabs
 * and Skeleton, code the sign-in page would load for nothing.
 */
function PageCard({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div
      className="default-layout-card"
      style={{
        width: '100%',
        maxWidth: 520,
        padding: token.paddingLG,
        background: token.colorBgContainer,
        borderRadius: token.borderRadiusLG,
        boxShadow: token.boxShadowTertiary,
        color: token.colorText,
        fontSize: token.fontSize,
        lineHeight: token.lineHeight,
      }}
    >
      {children}
    </div>
  );
}

/** Layout "default" (SPEC §2): header with logo and language switch over a centred card; terms below. */
export function DefaultLayout({ children }: { children: ReactNode }) {
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <SkipLink />
      <Layout.Header
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          background: 'transparent',
          paddingInline: 24,
        }}
      >
        <Logo />
        <PlainLanguageSwitch />
      </Layout.Header>
      <Layout.Content
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        style={{
          display: 'flex',
          justifyContent: 'center',
          alignItems: 'flex-start',
          padding: '48px 16px',
        }}
      >
        <PageCard>{children}</PageCard>
      </Layout.Content>
      <SiteFooter />
    </Layout>
  );
}
