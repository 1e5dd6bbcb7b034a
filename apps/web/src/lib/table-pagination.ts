/** SPEC §9 table pagination defaults, one place for every table of the console. */
import type { TablePaginationConfig } from 'antd';

export const PAGE_SIZE_DEFAULT = 5;
export const PAGE_SIZE_OPTIONS = [5, 10, 15, 20] as const;

/**
 * Layout "total, sizes, prev, pager, next, jumper", aligned right. Ant Design fixes the order of its
 * parts (total, pager, sizes, jumper); every part of the layout is there.
 */
export function tablePagination(
  overrides: TablePaginationConfig & { totalText: (total: number) => string },
): TablePaginationConfig {
  const { totalText, ...rest } = overrides;
  return {
    pageSize: PAGE_SIZE_DEFAULT,
    pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
    showSizeChanger: true,
    showQuickJumper: true,
    showTotal: totalText,
    position: ['bottomRight'],
    ...rest,
  };
}
