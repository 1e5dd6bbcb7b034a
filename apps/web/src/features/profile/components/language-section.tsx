import { Form, Select, message } from 'antd';
import type { TLanguage } from '@rpc/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../../lib/i18n';
import { ProfileSection } from './profile-section';

// Each language is named in itself, so a reader of either can find theirs.
const LANGUAGE_OPTIONS: { value: TLanguage; label: string }[] = [
  { value: 'en', label: 'English' },
  { value: 'zh', label: '中文' },
];

export function LanguageSection() {
  const { t } = useTranslation('profile');
  const { lang, setLang } = useLocale();
  const [isSwitching, setIsSwitching] = useState(false);

  async function onChange(next: TLanguage) {
    setIsSwitching(true);
    try {
      await setLang(next);
      void message.success(t('language.saved'));
    } catch (error) {
      console.error('Language switch failed', error);
    } finally {
      setIsSwitching(false);
    }
  }

  return (
    <ProfileSection title={t('language.title')}>
      <Form layout="vertical" style={{ maxWidth: 400 }}>
        <Form.Item
          label={t('language.label')}
          htmlFor="profile-language"
          extra={t('language.hint')}
          style={{ marginBottom: 0 }}
        >
          <Select<TLanguage>
            id="profile-language"
            value={lang}
            options={LANGUAGE_OPTIONS}
            onChange={onChange}
            loading={isSwitching}
            disabled={isSwitching}
          />
        </Form.Item>
      </Form>
    </ProfileSection>
  );
}
