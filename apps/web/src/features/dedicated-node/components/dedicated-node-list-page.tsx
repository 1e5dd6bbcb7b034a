/**
 * /rpc/dedicated-node: the acting account's dedicated nodes (SPEC §2, §3) as a SPEC §9 paged table with a status
 * filter: status, chain, type and region, endpoints with copy buttons, expiry in plain words, the status history
 * in each row, and Renew. After a purchase (?created=<id>) the new node is marked and the page says what comes next.
 */
import { DN_STATUSES } from '@rpc/contract';
import type { TDnNode } from '@rpc/contract';
import { Alert, Empty, Flex, Select, Typography } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LinkButton } from '../../../components/link-button';
import type { TPaging } from '../../../components/paged-table';
import { useCan } from '../../../lib/acting-account';
import { LocalizedLink } from '../../../lib/locale-path';
import { PAGE_SIZE_DEFAULT } from '../../../lib/table-pagination';
import type { TDnStatusFilter } from '../api/get-dn-nodes';
import { useDnNodes } from '../api/get-dn-nodes';
import { useNow } from '../hooks/use-now';
import { CREATED_PARAM } from '../utils/list-link';
import { NodeTable } from './node-table';
import { RenewNodeModal } from './renew-node-modal';
import './dedicated-node.css';

export function DedicatedNodeListPage() {
  const { t } = useTranslation('dedicated-node');
  const canBill = useCan('billing');
  const now = useNow();
  const filterId = useId();
  const readOnlyId = useId();
  const [searchParams, setSearchParams] = useSearchParams();
  const createdId = searchParams.get(CREATED_PARAM);
  const [status, setStatus] = useState<TDnStatusFilter>('all');
  const [paging, setPaging] = useState<TPaging>({ page: 1, perPage: PAGE_SIZE_DEFAULT });
  const nodes = useDnNodes({ ...paging, status });
  const [renewing, setRenewing] = useState<TDnNode | null>(null);
  const hasNoNodes = status === 'all' && nodes.data?.total === 0;

  const statusOptions = [
    { value: 'all', label: t('list.allStatuses') },
    ...DN_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) })),
  ].map((o) => ({ ...o, title: o.label }));

  return (
    <section aria-labelledby="page-title">
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 16 }}>
        <Typography.Title level={1} id="page-title" style={{ fontSize: 24, margin: 0 }}>
          {t('list.title')}
        </Typography.Title>
        <LinkButton to="/rpc/dedicated-node/new" type="primary">
          {t('links.new')}
        </LinkButton>
      </Flex>
      <Typography.Paragraph type="secondary">{t('list.description')}</Typography.Paragraph>
      <Flex vertical gap={16}>
        {createdId ? (
          <Alert
            type="success"
            showIcon
            closable
            message={t('list.created')}
            onClose={() =>
              setSearchParams(
                (params) => {
                  params.delete(CREATED_PARAM);
                  return params;
                },
                { replace: true },
              )
            }
          />
        ) : null}
        {!canBill ? (
          <Alert type="info" showIcon message={<span id={readOnlyId}>{t('list.readOnly')}</span>} />
        ) : null}
        {hasNoNodes ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('list.empty')}>
            <LinkButton to="/rpc/dedicated-node/new">{t('list.emptyAction')}</LinkButton>
          </Empty>
        ) : (
          <>
            <Flex gap={16} wrap align="flex-end" justify="space-between">
              <Flex vertical gap={4}>
                <label htmlFor={filterId}>{t('list.filterStatus')}</label>
                <Select<TDnStatusFilter>
                  id={filterId}
                  value={status}
                  options={statusOptions}
                  onChange={(next) => {
                    setStatus(next);
                    setPaging((p) => ({ ...p, page: 1 }));
                  }}
                  popupMatchSelectWidth={false}
                  style={{ minWidth: 180 }}
                />
              </Flex>
              <Typography.Text type="secondary" style={{ maxWidth: 560 }}>
                {t('list.keyHint')}{' '}
                <LocalizedLink to="/rpc/endpoint">{t('list.keysLink')}</LocalizedLink>
              </Typography.Text>
            </Flex>
            <NodeTable
              rows={nodes.data?.list}
              total={nodes.data?.total ?? 0}
              paging={paging}
              onPagingChange={setPaging}
              isLoading={nodes.isLoading}
              isFetching={nodes.isFetching && nodes.isPlaceholderData}
              isError={nodes.isError}
              onRetry={() => void nodes.refetch()}
              emptyText={t('list.emptyFiltered')}
              now={now}
              highlightId={createdId}
              renewBlockedBy={canBill ? null : readOnlyId}
              onRenew={setRenewing}
            />
          </>
        )}
      </Flex>
      {renewing ? (
        <RenewNodeModal key={renewing.id} node={renewing} onClose={() => setRenewing(null)} />
      ) : null}
    </section>
  );
}
