import { useTranslation } from 'react-i18next';
import { PagePlaceholder } from '../../../components/page-placeholder';

/** Empty state until this screen's issue lands; the route, guard and title already work. */
export function BindCallbackPage() {
  const { t } = useTranslation('oauth');
  return (
    <PagePlaceholder title={t('bindCallback.title')} description={t('bindCallback.description')} />
  );
}
