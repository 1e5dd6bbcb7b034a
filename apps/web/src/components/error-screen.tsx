import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

export type TErrorScreenProps = {
  status: number;
  /** shown under the title, as given (a validate rule's own message, or an error text) */
  message?: string;
  /** the path that was not found: shows SPEC §8 'Page Not Found: {path}' in the page's language */
  notFoundPath?: string;
  /** clears the error and goes to / */
  onBack: () => void;
};

function resultStatus(status: number): '403' | '404' | '500' {
  if (status === 403) return '403';
  if (status >= 500) return '500';
  return '404';
}

/** SPEC §2 error screen: illustration, title (notFound.title) and a back button (notFound.back). */
export function ErrorScreen({ status, message, notFoundPath, onBack }: TErrorScreenProps) {
  const { t } = useTranslation('errors');
  const subTitle =
    notFoundPath !== undefined ? t('notFound.subtitle', { path: notFoundPath }) : message;
  return (
    <Result
      status={resultStatus(status)}
      title={<h1 style={{ fontSize: 24, margin: 0 }}>{t('notFound.title')}</h1>}
      subTitle={subTitle ? <span data-status={status}>{subTitle}</span> : undefined}
      extra={
        <Button type="primary" onClick={onBack}>
          {t('notFound.back')}
        </Button>
      }
    />
  );
}
