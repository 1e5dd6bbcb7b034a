import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { PagePlaceholder } from '../../../components/page-placeholder';
import { useLocalizedNavigate } from '../../../lib/locale-path';

/** SPEC §2: this address belongs to an external component; we only say so and offer a way on. */
export function WorkbenchPage() {
  const { t } = useTranslation('external');
  const navigate = useLocalizedNavigate();
  return (
    <PagePlaceholder
      title={t('workbench.title')}
      description={t('workbench.description')}
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          {t('home')}
        </Button>
      }
    />
  );
}
