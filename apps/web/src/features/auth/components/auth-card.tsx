/** The centred card every public account page sits in. */
import { Card, ConfigProvider, Typography } from 'antd';
import type { ReactNode } from 'react';

type TAuthCardProps = { title?: string; children: ReactNode };

export function AuthCard({ title, children }: TAuthCardProps) {
  // No space squeezed between two Chinese characters: "登录" and "注册" stay findable by their names.
  return (
    <ConfigProvider button={{ autoInsertSpace: false }}>
      <div style={{ display: 'flex', justifyContent: 'center', padding: '48px 16px' }}>
        <Card style={{ width: '100%', maxWidth: 440 }}>
          {title !== undefined && (
            <Typography.Title level={1} style={{ fontSize: 24, marginTop: 0, marginBottom: 24 }}>
              {title}
            </Typography.Title>
          )}
          {children}
        </Card>
      </div>
    </ConfigProvider>
  );
}
