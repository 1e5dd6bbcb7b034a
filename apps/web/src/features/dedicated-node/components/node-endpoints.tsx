/**
 * A node's private endpoints with copy buttons, while it answers (online, or expiring soon); otherwise why there
 * are none. The URLs keep the {key} placeholder: the page says once which key goes there.
 */
import type { TDnNode } from '@rpc/contract';
import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button';
import { hasLiveEndpoints } from '../utils/node-status';

function EndpointRow({ label, url, copyLabel }: { label: string; url: string; copyLabel: string }) {
  return (
    <Flex gap={8} align="center" wrap={false}>
      <span className="dn-endpoint-label">{label}</span>
      <Typography.Text code className="dn-endpoint-url">
        {url}
      </Typography.Text>
      <CopyButton text={url} label={copyLabel} showLabel={false} />
    </Flex>
  );
}

export function NodeEndpoints({ node }: { node: TDnNode }) {
  const { t } = useTranslation('dedicated-node');
  if (hasLiveEndpoints(node.status)) {
    return (
      <Flex vertical gap={4}>
        <EndpointRow
          label={t('endpoints.http')}
          url={node.endpoint.httpUrlTemplate}
          copyLabel={t('endpoints.copyHttp')}
        />
        <EndpointRow
          label={t('endpoints.ws')}
          url={node.endpoint.wsUrlTemplate}
          copyLabel={t('endpoints.copyWs')}
        />
      </Flex>
    );
  }
  const why =
    node.status === 'pending'
      ? 'pending'
      : node.status === 'stopped'
        ? 'stopped'
        : node.dataDeletedAt !== null || !node.isRenewable
          ? 'deleted'
          : 'expired';
  return (
    <Typography.Text type="secondary" className="dn-endpoint-note">
      {t(`endpoints.${why}`)}
    </Typography.Text>
  );
}
