/** The loading and error states every billing card shares: a named skeleton, or an error with a retry. */
import { Alert, Button, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';

export function LoadingState({ label, rows = 3 }: { label: string; rows?: number }) {
  return (
    <div role="status" aria-label={label}>
      <Skeleton active paragraph={{ rows }} />
    </div>
  );
}

export function ErrorState({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation('billing');
  return (
    <Alert
      type="error"
      showIcon
      message={message}
      action={<Button onClick={onRetry}>{t('retry')}</Button>}
    />
  );
}
