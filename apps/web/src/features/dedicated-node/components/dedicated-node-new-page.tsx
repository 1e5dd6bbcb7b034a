import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { PagePlaceholder } from '../../../components/page-placeholder';

/** Empty state until this screen's issue lands; the route, guard and title already work. */
export function DedicatedNodeNewPage() {
  const { t } = useTranslation('dedicated-node');
  return (
    <PagePlaceholder
      title={t('new.title')}
      description={t('new.description')}
      extra={<LinkButton to="/rpc/dedicated-node">{t('links.back')}</LinkButton>}
    />
  );
}
