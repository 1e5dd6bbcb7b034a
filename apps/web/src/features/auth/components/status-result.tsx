/** A full-card outcome (success, expired link, …) whose title is the page's heading. */
import { Result, Spin } from 'antd';
import type { ReactNode } from 'react';
import { AuthCard } from './auth-card';

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
        title={
          <span role="heading" aria-level={1}>
            {title}
          </span>
        }
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
        <p style={{ marginTop: 16 }}>{label}</p>
      </div>
    </AuthCard>
  );
}
