import { Empty, Typography } from 'antd';
import type { ReactNode } from 'react';

export type TPagePlaceholderProps = {
  title: string;
  description: string;
  /** e.g. a link onwards */
  extra?: ReactNode;
};

/** The empty state of a screen whose content arrives in a later issue: heading plus what will be here. */
export function PagePlaceholder({ title, description, extra }: TPagePlaceholderProps) {
  return (
    <section aria-labelledby="page-title">
      <Typography.Title level={1} id="page-title" style={{ fontSize: 24 }}>
        {title}
      </Typography.Title>
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={description}>
        {extra}
      </Empty>
    </section>
  );
}
