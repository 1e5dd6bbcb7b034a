/** When a node expires, as a date and in plain words ("in 3 days"); after expiry, how long its data is kept. */
import type { TDnNode } from '@rpc/contract';
import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDnFormat } from '../hooks/use-dn-format';

export function NodeExpiry({ node, now }: { node: TDnNode; now: number }) {
  const { t } = useTranslation('dedicated-node');
  const format = useDnFormat();
  const isPast = node.expiresAt <= now;
  return (
    <Flex vertical gap={2}>
      <span>{format.date(node.expiresAt)}</span>
      <Typography.Text type={isPast || node.status === 'will_expired' ? 'warning' : 'secondary'}>
        {format.fromNow(node.expiresAt, now)}
      </Typography.Text>
      {node.dataDeletedAt !== null ? (
        <Typography.Text type="secondary">
          {t('expiry.deleted', { date: format.date(node.dataDeletedAt) })}
        </Typography.Text>
      ) : node.status === 'expired' ? (
        <Typography.Text type="secondary">
          {t('expiry.graceUntil', { date: format.date(node.graceEndsAt) })}
        </Typography.Text>
      ) : null}
    </Flex>
  );
}
