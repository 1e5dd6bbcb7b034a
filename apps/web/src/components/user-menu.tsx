import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import type { MenuProps } from 'antd';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocalizedNavigate } from '../lib/locale-path';
import { signOut, useSession } from '../lib/session';

/** Header menu of the signed-in user: nickname or e-mail, "Profile" and "Sign out" (no confirmation). */
export function UserMenu() {
  const { t } = useTranslation('layout');
  const navigate = useLocalizedNavigate();
  const user = useSession((s) => s.user);
  const name = user?.nickname || user?.email || '';

  const items: MenuProps['items'] = [
    { key: 'profile', icon: <UserOutlined aria-hidden />, label: t('userMenu.profile') },
    { type: 'divider' },
    { key: 'sign-out', icon: <LogoutOutlined aria-hidden />, label: t('userMenu.signOut') },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'profile') navigate('/rpc/profile');
    if (key === 'sign-out') {
      void signOut().then(() => navigate('/', { replace: true }));
    }
  };

  return (
    <Dropdown trigger={['click']} menu={{ items, onClick }} placement="bottomRight">
      <Button
        type="text"
        icon={<UserOutlined aria-hidden />}
        aria-label={t('userMenu.label', { name })}
        aria-haspopup="menu"
      >
        <span style={{ maxWidth: 180, overflow: 'hidden', textOverflow: 'ellipsis' }}>{name}</span>
      </Button>
    </Dropdown>
  );
}
