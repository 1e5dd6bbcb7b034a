import { CopyOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../lib/clipboard';

/** A button that copies `text`; `label` is its accessible name ("Copy HTTPS URL"). */
export function CopyButton({
  text,
  label,
  showLabel = true,
}: {
  text: string;
  label: string;
  showLabel?: boolean;
}) {
  const { t } = useTranslation('api-keys');
  return (
    <Button
      icon={<CopyOutlined aria-hidden />}
      aria-label={label}
      title={showLabel ? undefined : label}
      onClick={() =>
        void copyText(text, { success: t('copy.success'), failure: t('copy.failure') })
      }
    >
      {showLabel ? label : null}
    </Button>
  );
}
