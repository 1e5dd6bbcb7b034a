import { useTranslation } from 'react-i18next';
import { PagePlaceholder } from '../../../components/page-placeholder';

/** Empty state until this screen's issue lands; the route, guard and title already work. */
export function AuthCallbackPage() {
  const { t } = useTranslation('oauth');
  return (
    <PagePlaceholder title={t('authCallback.title')} description={t('authCallback.description')} />
  );
}
