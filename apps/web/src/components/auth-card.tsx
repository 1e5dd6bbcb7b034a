/**
 * The heading and body of a public account page (sign-in, registration, the third-party callbacks); the default
 * layout supplies the card around it.
 */
import { ConfigProvider, Typography } from 'antd';
import type { ReactNode } from 'react';

type TAuthCardProps = { title?: string; children: ReactNode };

export function AuthCard({ title, children }: TAuthCardProps) {
  // No space squeezed between two Chinese characters: "登录" and "注册" stay findable by their names.
  return (
    <ConfigProvider button={{ autoInsertSpace: false }}>
      <section>
        {title !== undefined && (
          <Typography.Title level={1} style={{ fontSize: 24, marginTop: 0, marginBottom: 24 }}>
            {title}
          </Typography.Title>
        )}
        {children}
      </section>
    </ConfigProvider>
  );
}
