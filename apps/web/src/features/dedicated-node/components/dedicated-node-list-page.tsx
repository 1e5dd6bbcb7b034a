import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { PagePlaceholder } from '../../../components/page-placeholder';

/** Empty state until this screen's issue lands, with the way on to order a node (SPEC §2). */
export function DedicatedNodeListPage() {
  const { t } = useTranslation('dedicated-node');
  return (
    <PagePlaceholder
      title={t('list.title')}
      description={t('list.description')}
      extra={
        <LinkButton to="/rpc/dedicated-node/new" type="primary">
          {t('links.new')}
        </LinkButton>
      }
    />
  );
}
