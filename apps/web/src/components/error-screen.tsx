import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

export type TErrorScreenProps = {
  status: number;
  /** e.g. 'Page Not Found: /x' (SPEC §8); shown under the title */
  message?: string;
  /** clears the error and goes to / */
  onBack: () => void;
};

function resultStatus(status: number): '403' | '404' | '500' {
  if (status === 403) return '403';
  if (status >= 500) return '500';
  return '404';
}

/** SPEC §2 error screen: illustration, title (notFound.title) and a back button (notFound.back). */
export function ErrorScreen({ status, message, onBack }: TErrorScreenProps) {
  const { t } = useTranslation('errors');
  return (
    <Result
      status={resultStatus(status)}
      title={<h1 style={{ fontSize: 24, margin: 0 }}>{t('notFound.title')}</h1>}
      subTitle={message ? <span data-status={status}>{message}</span> : undefined}
      extra={
        <Button type="primary" onClick={onBack}>
          {t('notFound.back')}
        </Button>
      }
    />
  );
}
