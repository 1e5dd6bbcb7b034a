/**
 * Header switcher of the acting account (SPEC §6): shows who the console acts for (personal, or a team and the
 * user's role in it) and switches to personal (not for team-type users) or to any team; "Manage teams" leads to
 * /rpc/team. Only for users with teams (or team-type users): others have nothing to switch to.
 */
import { CheckOutlined, MailOutlined, SettingOutlined, SwapOutlined } from '@ant-design/icons';
import type { MenuProps } from 'antd';
import { Badge, Button, Dropdown, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { actingAccountKey, asTeamRole, useSwitchAccount } from '../lib/acting-account';
import { useLocalizedNavigate } from '../lib/locale-path';
import { selectCurrentTeam, useSession } from '../lib/session';
import { useHeaderMenu } from './use-header-menu';
import { VisuallyHidden } from './visually-hidden';

const PERSONAL_KEY = 'personal';
const TEAM_KEY_PREFIX = 'team:';

export function TeamSwitcher({ isCompact = false }: { isCompact?: boolean }) {
  const { t } = useTranslation('layout');
  const { token } = theme.useToken();
  const navigate = useLocalizedNavigate();
  const switchAccount = useSwitchAccount();
  const user = useSession((s) => s.user);
  const currentTeam = useSession(selectCurrentTeam);
  const actingKey = useSession(actingAccountKey);
  const { isOpen, setIsOpen, menuId, onButtonKeyDown } = useHeaderMenu();

  if (!user || (user.userType !== 'team' && user.teamList.length === 0)) return null;

  const roleName = (role: string) => {
    const known = asTeamRole(role);
    return known ? t(`switcher.roles.${known}`) : role;
  };
  const isTeamActing = actingKey.startsWith(TEAM_KEY_PREFIX) && !!currentTeam;
  const actingName = isTeamActing ? currentTeam.teamName : t('switcher.personal');
  const actingDetail = isTeamActing ? roleName(currentTeam.role) : null;
  const check = (key: string) =>
    key === actingKey ? <CheckOutlined aria-hidden /> : <span style={{ width: 14 }} />;
  const current = (key: string) =>
    key === actingKey ? <VisuallyHidden>{t('switcher.current')}</VisuallyHidden> : null;

  const accounts: NonNullable<MenuProps['items']> = [
    ...(user.userType === 'team'
      ? []
      : [
          {
            key: PERSONAL_KEY,
            icon: check(PERSONAL_KEY),
            label: (
              <span>
                {t('switcher.personal')}
                {current(PERSONAL_KEY)}
              </span>
            ),
          },
        ]),
    ...user.teamList.map((team) => ({
      key: `${TEAM_KEY_PREFIX}${team.teamId}`,
      icon: check(`${TEAM_KEY_PREFIX}${team.teamId}`),
      label: (
        <span style={{ display: 'inline-flex', gap: 8, maxWidth: 260 }}>
          <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
            {team.teamName}
          </span>
          <span style={{ color: token.colorTextSecondary, flex: 'none' }}>
            {roleName(team.role)}
          </span>
          {current(`${TEAM_KEY_PREFIX}${team.teamId}`)}
        </span>
      ),
    })),
  ];
  const items: MenuProps['items'] = [
    { type: 'group', key: 'accounts', label: t('switcher.heading'), children: accounts },
    { type: 'divider' },
    ...(user.hasInvite
      ? [{ key: 'invites', icon: <MailOutlined aria-hidden />, label: t('switcher.invites') }]
      : []),
    { key: 'manage', icon: <SettingOutlined aria-hidden />, label: t('switcher.manage') },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    setIsOpen(false);
    if (key === 'manage') return navigate('/rpc/team');
    if (key === 'invites') return navigate('/invite-member');
    if (key === actingKey) return;
    if (key === PERSONAL_KEY) switchAccount({ kind: 'personal' });
    else if (key.startsWith(TEAM_KEY_PREFIX)) {
      switchAccount({ kind: 'team', teamId: key.slice(TEAM_KEY_PREFIX.length) });
    }
  };

  const label = actingDetail
    ? t('switcher.label', { name: `${actingName} (${actingDetail})` })
    : t('switcher.label', { name: actingName });

  return (
    <Dropdown
      trigger={['click']}
      open={isOpen}
      onOpenChange={setIsOpen}
      menu={{ id: menuId, items, onClick }}
      placement="bottomRight"
      getPopupContainer={(trigger) => trigger.closest('header') ?? document.body}
    >
      <Button
        type="text"
        icon={
          <Badge dot={user.hasInvite} offset={[2, 0]}>
            <SwapOutlined aria-hidden />
          </Badge>
        }
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={isOpen}
        onKeyDown={onButtonKeyDown}
        style={{ minWidth: 0, flex: '0 1 auto', overflow: 'hidden' }}
      >
        {isCompact ? null : (
          <span
            style={{
              display: 'inline-block',
              maxWidth: 180,
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              whiteSpace: 'nowrap',
              verticalAlign: 'bottom',
            }}
          >
            {actingName}
            {actingDetail ? (
              <span style={{ color: token.colorTextSecondary }}> · {actingDetail}</span>
            ) : null}
          </span>
        )}
      </Button>
    </Dropdown>
  );
}
