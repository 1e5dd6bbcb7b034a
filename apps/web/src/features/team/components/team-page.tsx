import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { PagePlaceholder } from '../../../components/page-placeholder';

/** Empty state until this screen's issue lands, with the way on to the team's logs (SPEC §2). */
export function TeamPage() {
  const { t } = useTranslation('team');
  return (
    <PagePlaceholder
      title={t('list.title')}
      description={t('list.description')}
      extra={<LinkButton to="/rpc/team/logs">{t('links.logs')}</LinkButton>}
    />
  );
}
