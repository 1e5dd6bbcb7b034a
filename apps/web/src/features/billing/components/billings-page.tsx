import { Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { PagePlaceholder } from '../../../components/page-placeholder';

/** Empty state until this screen's issue lands, with the ways on to top-up and invoices (SPEC §2). */
export function BillingsPage() {
  const { t } = useTranslation('billing');
  return (
    <PagePlaceholder
      title={t('list.title')}
      description={t('list.description')}
      extra={
        <Flex gap={8} wrap justify="center">
          <LinkButton to="/rpc/billings/charge" type="primary">
            {t('links.charge')}
          </LinkButton>
          <LinkButton to="/rpc/billings/invoice">{t('links.invoices')}</LinkButton>
        </Flex>
      }
    />
  );
}
