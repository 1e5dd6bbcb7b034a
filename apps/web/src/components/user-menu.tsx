/**
 * Header menu of the signed-in user: who is signed in (and as which account), Profile, help and support,
 * and "Sign out" (no confirmation). ArrowDown on the button opens it with focus on the first item.
 */
import {
  CustomerServiceOutlined,
  LogoutOutlined,
  QuestionCircleOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { MenuProps } from 'antd';
import { Avatar, Button, Dropdown, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { GATEWAY_GUIDE_PATH } from '../lib/help-links';
import { useLocalizedNavigate } from '../lib/locale-path';
import { signOut, useSession } from '../lib/session';
import { useHeaderMenu } from './use-header-menu';

export type TUserMenuProps = {
  /** icon only (phones): the name stays in the button's accessible name and atop the menu */
  isCompact?: boolean;
};

export function UserMenu({ isCompact = false }: TUserMenuProps) {
  const { t } = useTranslation('layout');
  const { token } = theme.useToken();
  const navigate = useLocalizedNavigate();
  const [, setSearchParams] = useSearchParams();
  const user = useSession((s) => s.user);
  const loginType = useSession((s) => s.loginType);
  const teamId = useSession((s) => s.teamId);
  const { isOpen, setIsOpen, menuId, onButtonKeyDown } = useHeaderMenu();
  const name = user?.nickname || user?.email || '';
  const team =
    loginType === 'team' ? user?.teamList.find((entry) => entry.teamId === teamId) : undefined;

  const items: MenuProps['items'] = [
    {
      type: 'group',
      key: 'account',
      label: (
        <span style={{ display: 'block', maxWidth: 260, color: token.colorTextSecondary }}>
          <span
            style={{
              display: 'block',
              color: token.colorText,
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              whiteSpace: 'nowrap',
            }}
          >
            {t('userMenu.signedInAs', { name })}
          </span>
          <span style={{ display: 'block', fontSize: 12 }}>
            {team ? t('userMenu.teamLogin', { team: team.teamName }) : t('userMenu.personalLogin')}
          </span>
        </span>
      ),
      children: [
        { key: 'profile', icon: <UserOutlined aria-hidden />, label: t('userMenu.profile') },
      ],
    },
    { type: 'divider' },
    {
      key: 'docs',
      icon: <QuestionCircleOutlined aria-hidden />,
      label: t('userMenu.docs'),
    },
    {
      key: 'support',
      icon: <CustomerServiceOutlined aria-hidden />,
      label: t('userMenu.support'),
    },
    { type: 'divider' },
    { key: 'sign-out', icon: <LogoutOutlined aria-hidden />, label: t('userMenu.signOut') },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    setIsOpen(false);
    if (key === 'profile') navigate('/rpc/profile');
    if (key === 'docs') navigate(GATEWAY_GUIDE_PATH);
    if (key === 'support') {
      // The support drawer (features/support) opens on ?support=open over the current page.
      setSearchParams(
        (p) => {
          p.set('support', 'open');
          return p;
        },
        { replace: false },
      );
    }
    if (key === 'sign-out') {
      void signOut().then(() => navigate('/', { replace: true }));
    }
  };

  return (
    <Dropdown
      trigger={['click']}
      open={isOpen}
      onOpenChange={setIsOpen}
      menu={{ id: menuId, items, onClick }}
      placement="bottomRight"
      // Inside the header's landmark, so the menu's content is not loose in the page.
      getPopupContainer={(trigger) => trigger.closest('header') ?? document.body}
    >
      <Button
        type="text"
        icon={
          // The user's avatar when set; the button's label already names the user, so the image is decoration.
          user?.avatar ? (
            <Avatar size={22} src={user.avatar} alt="" aria-hidden style={{ marginTop: -2 }} />
          ) : (
            <UserOutlined aria-hidden />
          )
        }
        aria-label={t('userMenu.label', { name })}
        aria-haspopup="menu"
        aria-expanded={isOpen}
        onKeyDown={onButtonKeyDown}
      >
        {!isCompact && name && (
          <span
            style={{
              display: 'inline-block',
              maxWidth: 160,
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              whiteSpace: 'nowrap',
              verticalAlign: 'bottom',
            }}
          >
            {name}
          </span>
        )}
      </Button>
    </Dropdown>
  );
}
