/** A full-card outcome (success, expired link, …) or a wait, whose title is the page's h1. */
import { Result, Spin } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { AuthCard } from './auth-card';

/** An h1 that looks like the text around it (Result's title, the loading line): the card sets the size. */
const PLAIN_HEADING: CSSProperties = { margin: 0, font: 'inherit', color: 'inherit' };

type TStatusResultProps = {
  status: 'success' | 'info' | 'warning' | 'error';
  title: string;
  description?: ReactNode;
  children?: ReactNode;
};

export function StatusResult({ status, title, description, children }: TStatusResultProps) {
  return (
    <AuthCard>
      <Result
        status={status}
        title={<h1 style={PLAIN_HEADING}>{title}</h1>}
        subTitle={description}
        extra={children}
        style={{ padding: '16px 0' }}
      />
    </AuthCard>
  );
}

export function LoadingResult({ label }: { label: string }) {
  return (
    <AuthCard>
      <div role="status" aria-live="polite" style={{ textAlign: 'center', padding: '48px 0' }}>
        <Spin size="large" />
        <h1 style={{ ...PLAIN_HEADING, marginTop: 16 }}>{label}</h1>
      </div>
    </AuthCard>
  );
}
