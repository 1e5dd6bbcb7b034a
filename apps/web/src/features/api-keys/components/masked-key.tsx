import { EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { Button, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { maskKey } from '../utils/endpoint-urls';
import { CopyButton } from '../../../components/copy-button';

/** The key hidden by default, with reveal and copy. */
export function MaskedKey({ value }: { value: string }) {
  const { t } = useTranslation('api-keys');
  const [isRevealed, setRevealed] = useState(false);
  return (
    <Space size={4}>
      <Typography.Text code style={{ whiteSpace: 'nowrap' }}>
        {isRevealed ? value : maskKey(value)}
      </Typography.Text>
      <Button
        type="text"
        size="small"
        icon={isRevealed ? <EyeInvisibleOutlined aria-hidden /> : <EyeOutlined aria-hidden />}
        aria-label={isRevealed ? t('key.hide') : t('key.show')}
        aria-pressed={isRevealed}
        title={isRevealed ? t('key.hide') : t('key.show')}
        onClick={() => setRevealed((v) => !v)}
      />
      <CopyButton text={value} label={t('key.copy')} showLabel={false} />
    </Space>
  );
}
