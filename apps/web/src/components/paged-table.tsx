/**
 * A server-paged table with SPEC §9 paging (page size 5; 5/10/15/20; total, sizes, prev, pager, next, jumper;
 * right-aligned), its loading, empty and error states, and sideways scrolling inside its own box on a phone.
 * The billing histories use it; invoices, deposits and team logs are meant to (STYLE "Growing" 8).
 */
import type { TableColumnsType } from 'antd';
import { Alert, Button, Table } from 'antd';
import type { Key, ReactNode, RefObject } from 'react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { tablePagination } from '../lib/table-pagination';

export type TPaging = { page: number; perPage: number };

export type TPagedTableProps<T> = {
  /** the table's accessible name (also the scroll region's) */
  label: string;
  rowKey: keyof T & string;
  columns: TableColumnsType<T>;
  rows: readonly T[] | undefined;
  total: number;
  paging: TPaging;
  /** a new page size starts again at page 1 */
  onPagingChange: (paging: TPaging) => void;
  /** first load: nothing to show yet */
  isLoading: boolean;
  /** a page or filter change in flight: the previous rows stay, dimmed */
  isFetching?: boolean;
  isError: boolean;
  onRetry: () => void;
  emptyText: ReactNode;
  /** "12 purchases"; defaults to "12 items" */
  totalText?: (total: number) => string;
};

/**
 * Keyboard users must be able to scroll a table that scrolls sideways (WCAG 2.1.1; axe scrollable-region-focusable):
 * its scroll box takes focus while, and only while, its content is wider than it.
 */
export function useFocusableScrollBox(): RefObject<HTMLDivElement | null> {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = ref.current?.querySelector<HTMLElement>('.ant-table-content');
    if (!box) return;
    const update = () => {
      if (box.scrollWidth > box.clientWidth) box.tabIndex = 0;
      else box.removeAttribute('tabindex');
    };
    update();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(update);
    observer.observe(box);
    const table = box.querySelector('table');
    if (table) observer.observe(table);
    return () => observer.disconnect();
  });
  return ref;
}

export function PagedTable<T extends object>(props: TPagedTableProps<T>) {
  const { t } = useTranslation('common');
  const { paging, onPagingChange } = props;
  const boxRef = useFocusableScrollBox();

  if (props.isError && !props.rows) {
    return (
      <Alert
        type="error"
        showIcon
        message={t('table.loadFailed')}
        action={<Button onClick={props.onRetry}>{t('retry')}</Button>}
      />
    );
  }

  return (
    <div role="region" aria-label={props.label} ref={boxRef}>
      <Table<T>
        rowKey={(row) => row[props.rowKey] as Key}
        columns={props.columns}
        dataSource={(props.rows ?? []) as T[]}
        loading={props.isLoading || (props.isFetching ?? false)}
        locale={{ emptyText: props.isLoading ? t('loading') : props.emptyText }}
        scroll={{ x: 'max-content' }}
        size="middle"
        pagination={tablePagination({
          current: paging.page,
          pageSize: paging.perPage,
          total: props.total,
          totalText: props.totalText ?? ((total) => t('table.total', { count: total })),
          onChange: (page, perPage) =>
            onPagingChange({ page: perPage === paging.perPage ? page : 1, perPage }),
        })}
      />
    </div>
  );
}
