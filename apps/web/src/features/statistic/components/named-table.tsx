import type { TableProps } from 'antd';
import type { ComponentProps } from 'react';

/**
 * Ant Design's Table puts aria attributes on its wrapper, not on the <table>; this names the table itself so
 * assistive technology (and role-based tests) can tell the page's tables apart.
 */
export function namedTable(label: string): TableProps['components'] {
  return {
    table: (props: ComponentProps<'table'>) => <table {...props} aria-label={label} />,
  };
}
