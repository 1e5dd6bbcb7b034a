import { useTranslation } from 'react-i18next';
import { PagePlaceholder } from '../../../components/page-placeholder';

/** Empty state until this screen's issue lands; the route, guard and title already work. */
export function StatisticPage() {
  const { t } = useTranslation('statistic');
  return <PagePlaceholder title={t('home.title')} description={t('home.description')} />;
}
