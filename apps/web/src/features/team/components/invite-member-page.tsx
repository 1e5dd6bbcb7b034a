import { useTranslation } from 'react-i18next';
import { PagePlaceholder } from '../../../components/page-placeholder';

/** Empty state until this screen's issue lands; the route, guard and title already work. */
export function InviteMemberPage() {
  const { t } = useTranslation('team');
  return (
    <PagePlaceholder title={t('inviteMember.title')} description={t('inviteMember.description')} />
  );
}
