import { Card, Typography } from 'antd';
import type { ReactNode } from 'react';

type TProfileSectionProps = { title: string; children: ReactNode };

/** One card of the profile page; its title is an h2 under the page's h1. */
export function ProfileSection({ title, children }: TProfileSectionProps) {
  return (
    <Card
      title={
        <Typography.Title level={2} style={{ fontSize: 16, margin: 0 }}>
          {title}
        </Typography.Title>
      }
    >
      {children}
    </Card>
  );
}
