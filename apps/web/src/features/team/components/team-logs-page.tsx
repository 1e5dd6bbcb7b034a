import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { PagePlaceholder } from '../../../components/page-placeholder';

/** Empty state until this screen's issue lands; the route, guard and title already work. */
export function TeamLogsPage() {
  const { t } = useTranslation('team');
  return (
    <PagePlaceholder
      title={t('logs.title')}
      description={t('logs.description')}
      extra={<LinkButton to="/rpc/team">{t('links.back')}</LinkButton>}
    />
  );
}
