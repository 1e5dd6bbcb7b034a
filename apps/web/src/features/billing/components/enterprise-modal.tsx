/** How to get an enterprise package: the contact address and what it includes (hub_getEnterpriseInfo). */
import { Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useEnterpriseInfo } from '../api/get-enterprise-info';
import { useBillingFormat } from '../hooks/use-billing-format';
import { ErrorState, LoadingState } from './query-state';

export function EnterpriseModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('billing');
  const format = useBillingFormat();
  const info = useEnterpriseInfo(open);
  return (
    <Modal
      open={open}
      title={t('enterprise.title')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      {info.isLoading ? (
        <LoadingState label={t('enterprise.loading')} />
      ) : !info.data ? (
        <ErrorState message={t('enterprise.loadFailed')} onRetry={() => void info.refetch()} />
      ) : (
        <>
          <Typography.Paragraph>{t('enterprise.description')}</Typography.Paragraph>
          {info.data.features.length > 0 ? (
            <ul>
              {info.data.features.map((feature) => (
                <li key={feature.en}>{format.text(feature)}</li>
              ))}
            </ul>
          ) : null}
          <Typography.Paragraph>
            {t('enterprise.contact')}{' '}
            <a href={`mailto:${info.data.contactEmail}`}>{info.data.contactEmail}</a>
          </Typography.Paragraph>
        </>
      )}
    </Modal>
  );
}
