import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { PagePlaceholder } from '../../../components/page-placeholder';

/** Empty state until this screen's issue lands; the route, guard and title already work. */
export function BillingChargePage() {
  const { t } = useTranslation('billing');
  return (
    <PagePlaceholder
      title={t('charge.title')}
      description={t('charge.description')}
      extra={<LinkButton to="/rpc/billings">{t('links.back')}</LinkButton>}
    />
  );
}
