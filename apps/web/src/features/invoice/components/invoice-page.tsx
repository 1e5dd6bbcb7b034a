import { useTranslation } from 'react-i18next';
import { PagePlaceholder } from '../../../components/page-placeholder';

/** Empty state until this screen's issue lands; the route, guard and title already work. */
export function InvoicePage() {
  const { t } = useTranslation('invoice');
  return <PagePlaceholder title={t('view.title')} description={t('view.description')} />;
}
