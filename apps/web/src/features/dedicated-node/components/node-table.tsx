/**
 * The node list as a SPEC §9 paged table (the shared pagination and scroll box of components/paged-table.tsx; a
 * plain Table here because each row expands to the node's status history, which PagedTable does not offer).
 */
import { RightOutlined } from '@ant-design/icons';
import type { TDnNode } from '@rpc/contract';
import type { TableColumnsType } from 'antd';
import { Alert, Button, Flex, Table, Tag, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TPaging } from '../../../components/paged-table';
import { useFocusableScrollBox } from '../../../components/paged-table';
import { TAG_STYLE } from '../../../components/tag-styles';
import { tablePagination } from '../../../lib/table-pagination';
import { useDnFormat } from '../hooks/use-dn-format';
import { useNodeName } from '../hooks/use-node-name';
import { NodeEndpoints } from './node-endpoints';
import { NodeExpiry } from './node-expiry';
import { NodeHistory } from './node-history';
import { NodeStatusTag } from './node-status-tag';

export type TNodeTableProps = {
  rows: readonly TDnNode[] | undefined;
  total: number;
  paging: TPaging;
  onPagingChange: (paging: TPaging) => void;
  isLoading: boolean;
  isFetching: boolean;
  isError: boolean;
  onRetry: () => void;
  emptyText: ReactNode;
  now: number;
  /** the node just bought: marked in words and colour */
  highlightId: string | null;
  /** why Renew is off for everyone here (a role without billing), by the id of the text that says so */
  renewBlockedBy: string | null;
  onRenew: (node: TDnNode) => void;
};

export function NodeTable(props: TNodeTableProps) {
  const { t } = useTranslation('dedicated-node');
  const { t: tc } = useTranslation('common');
  const format = useDnFormat();
  const nodeName = useNodeName();
  const boxRef = useFocusableScrollBox();
  const { paging, onPagingChange } = props;

  if (props.isError && !props.rows) {
    return (
      <Alert
        type="error"
        showIcon
        message={t('list.loadFailed')}
        action={<Button onClick={props.onRetry}>{t('retry')}</Button>}
      />
    );
  }

  const columns: TableColumnsType<TDnNode> = [
    {
      key: 'chain',
      title: t('columns.chain'),
      render: (_v, node) => (
        <Flex gap={4} align="center" wrap>
          <span>{format.text(node.chainName)}</span>
          {node.id === props.highlightId ? (
            <Tag style={TAG_STYLE.blue}>{t('list.newTag')}</Tag>
          ) : null}
        </Flex>
      ),
    },
    {
      key: 'type',
      title: t('columns.nodeType'),
      render: (_v, node) => t(`nodeType.${node.nodeType}`),
    },
    {
      key: 'region',
      title: t('columns.region'),
      render: (_v, node) => format.text(node.regionName),
    },
    {
      key: 'status',
      title: t('columns.status'),
      render: (_v, node) => <NodeStatusTag status={node.status} />,
    },
    {
      key: 'endpoints',
      title: t('columns.endpoints'),
      render: (_v, node) => <NodeEndpoints node={node} />,
    },
    {
      key: 'expires',
      title: t('columns.expires'),
      render: (_v, node) => <NodeExpiry node={node} now={props.now} />,
    },
    {
      key: 'actions',
      title: t('columns.actions'),
      render: (_v, node) => {
        const why = props.renewBlockedBy
          ? t('renew.noPermissionShort')
          : node.isRenewable
            ? null
            : t('renew.notRenewable');
        const button = (
          <Button
            disabled={why !== null}
            aria-label={t('renew.actionLabel', { node: nodeName(node) })}
            aria-describedby={props.renewBlockedBy ?? undefined}
            onClick={() => props.onRenew(node)}
          >
            {t('renew.action')}
          </Button>
        );
        return why ? (
          <Flex vertical gap={2} align="flex-start">
            <Tooltip title={why}>
              <span>{button}</span>
            </Tooltip>
            {!props.renewBlockedBy ? <span className="dn-cell-note">{why}</span> : null}
          </Flex>
        ) : (
          button
        );
      },
    },
  ];

  return (
    <div role="region" aria-label={t('list.tableLabel')} ref={boxRef}>
      <Table<TDnNode>
        rowKey="id"
        columns={columns}
        dataSource={(props.rows ?? []) as TDnNode[]}
        loading={props.isLoading || props.isFetching}
        locale={{ emptyText: props.isLoading ? tc('loading') : props.emptyText }}
        scroll={{ x: 'max-content' }}
        size="middle"
        rowClassName={(node) => (node.id === props.highlightId ? 'dn-row-new' : '')}
        expandable={{
          expandedRowRender: (node) => <NodeHistory node={node} title={t('history.title')} />,
          expandIcon: ({ expanded, onExpand, record }) => (
            <Button
              type="text"
              size="small"
              aria-expanded={expanded}
              aria-label={t(expanded ? 'history.hide' : 'history.show', { node: nodeName(record) })}
              icon={<RightOutlined aria-hidden rotate={expanded ? 90 : 0} />}
              onClick={(e) => onExpand(record, e)}
            />
          ),
        }}
        pagination={tablePagination({
          current: paging.page,
          pageSize: paging.perPage,
          total: props.total,
          totalText: (total) => t('list.total', { count: total }),
          onChange: (page, perPage) =>
            onPagingChange({ page: perPage === paging.perPage ? page : 1, perPage }),
        })}
      />
    </div>
  );
}
