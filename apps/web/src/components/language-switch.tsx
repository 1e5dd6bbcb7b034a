import { CheckOutlined, GlobalOutlined } from '@ant-design/icons';
import type { TLanguage } from '@rpc/contract';
import { LANGUAGES } from '@rpc/contract';
import type { MenuProps } from 'antd';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../lib/i18n';

/** Header control: a button named "Language" / "语言" opening a menu of "English" and "中文". */
export function LanguageSwitch() {
  const { t } = useTranslation('layout');
  const { lang, setLang } = useLocale();
  const items: MenuProps['items'] = LANGUAGES.map((code) => ({
    key: code,
    label: (
      <span lang={code === 'zh' ? 'zh-CN' : 'en'} aria-current={code === lang ? 'true' : undefined}>
        {t(`language.${code}`)}
      </span>
    ),
    icon:
      code === lang ? <CheckOutlined aria-hidden /> : <span aria-hidden style={{ width: 14 }} />,
  }));
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items,
        selectable: true,
        selectedKeys: [lang],
        onClick: ({ key }) => void setLang(key as TLanguage),
      }}
    >
      <Button
        type="text"
        icon={<GlobalOutlined aria-hidden />}
        aria-label={t('language.label')}
        title={t('language.label')}
        aria-haspopup="menu"
      >
        <span aria-hidden>{lang.toUpperCase()}</span>
      </Button>
    </Dropdown>
  );
}
