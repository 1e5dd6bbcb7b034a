import { Card, Layout } from 'antd';
import type { ReactNode } from 'react';
import { LanguageSwitch } from '../language-switch';
import { Logo } from '../logo';
import { MAIN_CONTENT_ID, SkipLink } from '../skip-link';
import { SiteFooter } from './site-footer';

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
        <LanguageSwitch />
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
        <Card variant="borderless" style={{ width: '100%', maxWidth: 520 }}>
          {children}
        </Card>
      </Layout.Content>
      <SiteFooter />
    </Layout>
  );
}
