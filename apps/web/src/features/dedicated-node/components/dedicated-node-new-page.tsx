/**
 * /rpc/dedicated-node/new: orders a dedicated node (SPEC §2, §7) with a wizard over the catalogue (hub_getDnSku):
 * chain, node type, region, period, then the price and payment.
 */
import { Alert, Button, Flex, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { useDnSku } from '../api/get-dn-sku';
import { NodeWizard } from './node-wizard';
import './dedicated-node.css';

export function DedicatedNodeNewPage() {
  const { t } = useTranslation('dedicated-node');
  const sku = useDnSku();

  return (
    <section aria-labelledby="page-title">
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 16 }}>
        <Typography.Title level={1} id="page-title" style={{ fontSize: 24, margin: 0 }}>
          {t('new.title')}
        </Typography.Title>
        <LinkButton to="/rpc/dedicated-node">{t('links.back')}</LinkButton>
      </Flex>
      <Typography.Paragraph type="secondary">{t('new.description')}</Typography.Paragraph>
      {sku.isLoading ? (
        <div role="status" aria-label={t('wizard.loading')}>
          <Skeleton active paragraph={{ rows: 6 }} />
        </div>
      ) : !sku.data ? (
        <Alert
          type="error"
          showIcon
          message={t('wizard.loadFailed')}
          action={<Button onClick={() => void sku.refetch()}>{t('retry')}</Button>}
        />
      ) : sku.data.chains.length === 0 ? (
        <Alert type="info" showIcon message={t('wizard.noChains')} />
      ) : (
        <NodeWizard sku={sku.data} onRefreshSku={() => void sku.refetch()} />
      )}
    </section>
  );
}
