/** A node's status history, oldest first (as the server keeps it): each change with its time and why. */
import type { TDnNode } from '@rpc/contract';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDnFormat } from '../hooks/use-dn-format';
import { historyReasonText } from '../utils/history-reason';
import { NodeStatusTag } from './node-status-tag';

export function NodeHistory({ node, title }: { node: TDnNode; title: string }) {
  const { t } = useTranslation('dedicated-node');
  const format = useDnFormat();
  const headingId = `dn-history-${node.id}`;
  return (
    <section aria-labelledby={headingId} className="dn-history">
      <h2 id={headingId} className="dn-history-title">
        {title}
      </h2>
      {node.history.length === 0 ? (
        <Typography.Text type="secondary">{t('history.empty')}</Typography.Text>
      ) : (
        <ol className="dn-history-list">
          {node.history.map((event, i) => (
            <li key={`${event.at}-${i}`}>
              <time dateTime={new Date(event.at).toISOString()}>{format.date(event.at)}</time>
              <NodeStatusTag status={event.status} />
              <span>{historyReasonText(t, event.reason)}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
