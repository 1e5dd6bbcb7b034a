import type { ReactNode } from 'react';
import { PlainLanguageSwitch } from '../plain-language-switch';
import { Logo } from '../logo';
import { MAIN_CONTENT_ID, SkipLink } from '../skip-link';
import { SiteFooter } from './site-footer';
import '../ui/ui.css';

/**
 * Layout "default" (SPEC §2): header with logo and language switch over a centred card; terms below. Drawn as
 * antd's Layout and borderless Card draw it, without their code: the sign-in page, the first most visitors see,
 * loads no antd at all (components/ui/).
 */
export function DefaultLayout({ children }: { children: ReactNode }) {
  return (
    <div
      className="ui-root"
      style={{
        display: 'flex',
        flexDirection: 'column',
        minHeight: '100vh',
        background: 'var(--color-bg-layout)',
      }}
    >
      <SkipLink />
      <header
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          height: 64,
          paddingInline: 24,
        }}
      >
        <Logo />
        <PlainLanguageSwitch />
      </header>
      <main
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        style={{
          display: 'flex',
          flex: 'auto',
          justifyContent: 'center',
          alignItems: 'flex-start',
          padding: '48px 16px',
        }}
      >
        <div
          className="default-layout-card"
          style={{
            boxSizing: 'border-box',
            width: '100%',
            maxWidth: 520,
            padding: 24,
            background: 'var(--color-bg-container)',
            borderRadius: 'var(--border-radius-lg)',
            boxShadow: 'var(--box-shadow-tertiary)',
          }}
        >
          {children}
        </div>
      </main>
      <SiteFooter />
    </div>
  );
}
