import { useTranslation } from 'react-i18next';
import { PagePlaceholder } from '../../../components/page-placeholder';

/** Empty state until this screen's issue lands; the route, guard and title already work. */
export function TeamPage() {
  const { t } = useTranslation('team');
  return <PagePlaceholder title={t('list.title')} description={t('list.description')} />;
}
