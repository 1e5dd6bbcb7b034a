/**
 * /choose-team (SPEC §2, §6): a personal user with teams picks personal or a team; a team user with several teams
 * picks one (a team user with one team never sees this page: the guard enters it). Each choice is a card with a
 * real button, so the page works from the keyboard and reads as a list.
 */
import { TeamOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { asTeamRole, useSwitchAccount } from '../../../lib/acting-account';
import { useSession } from '../../../lib/session';
import { RoleTag } from './role-tag';

function Choice({
  id,
  icon,
  title,
  tags,
  hint,
  buttonLabel,
  isPrimary,
  onChoose,
}: {
  id: string;
  icon: ReactNode;
  title: string;
  tags?: ReactNode;
  hint: string;
  buttonLabel: string;
  isPrimary: boolean;
  onChoose: () => void;
}) {
  const titleId = `choice-${id}`;
  return (
    <li>
      <Card size="small" role="group" aria-labelledby={titleId}>
        <Flex align="center" gap={16} wrap justify="space-between">
          <Flex align="center" gap={12} style={{ minWidth: 0, flex: '1 1 220px' }}>
            <span style={{ fontSize: 24 }}>{icon}</span>
            <div style={{ minWidth: 0 }}>
              <Typography.Text
                strong
                id={titleId}
                ellipsis={{ tooltip: title }}
                style={{ display: 'block', maxWidth: '100%' }}
              >
                {title}
              </Typography.Text>
              <Flex gap={4} wrap align="center">
                {tags}
                <Typography.Text type="secondary">{hint}</Typography.Text>
              </Flex>
            </div>
          </Flex>
          <Button type={isPrimary ? 'primary' : 'default'} onClick={onChoose}>
            {buttonLabel}
          </Button>
        </Flex>
      </Card>
    </li>
  );
}

export function ChooseTeamPage() {
  const { t } = useTranslation('team');
  const switchAccount = useSwitchAccount();
  const user = useSession((s) => s.user);
  const currentTeamId = useSession((s) => (s.loginType === 'team' ? s.teamId : null));
  const isTeamUser = user?.userType === 'team';
  const teams = user?.teamList ?? [];

  return (
    <section
      aria-labelledby="page-title"
      style={{ maxWidth: 640, margin: '0 auto', width: '100%' }}
    >
      <Typography.Title level={1} id="page-title" style={{ fontSize: 24 }}>
        {t('chooseTeam.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        {isTeamUser ? t('chooseTeam.descriptionTeamUser') : t('chooseTeam.description')}
      </Typography.Paragraph>
      {teams.length === 0 && isTeamUser ? (
        <Empty description={t('chooseTeam.empty')}>
          {user?.hasInvite ? (
            <LinkButton to="/invite-member" type="primary">
              {t('chooseTeam.seeInvites')}
            </LinkButton>
          ) : null}
        </Empty>
      ) : (
        <Flex
          vertical
          gap={12}
          component="ul"
          aria-label={t('chooseTeam.listLabel')}
          style={{ listStyle: 'none', margin: 0, padding: 0 }}
        >
          {!isTeamUser && (
            <Choice
              id="personal"
              icon={<UserOutlined aria-hidden />}
              title={t('chooseTeam.personal')}
              hint={t('chooseTeam.personalHint')}
              buttonLabel={t('chooseTeam.continue', { name: t('chooseTeam.personal') })}
              isPrimary
              onChoose={() => switchAccount({ kind: 'personal' })}
            />
          )}
          {teams.map((team) => {
            const role = asTeamRole(team.role);
            return (
              <Choice
                key={team.teamId}
                id={team.teamId}
                icon={<TeamOutlined aria-hidden />}
                title={team.teamName}
                tags={
                  <>
                    {role ? <RoleTag role={role} /> : null}
                    {team.teamId === currentTeamId ? (
                      <Tag color="processing">{t('chooseTeam.current')}</Tag>
                    ) : null}
                  </>
                }
                hint={t('chooseTeam.teamHint')}
                buttonLabel={t('chooseTeam.continue', { name: team.teamName })}
                isPrimary={isTeamUser}
                onChoose={() => switchAccount({ kind: 'team', teamId: team.teamId })}
              />
            );
          })}
        </Flex>
      )}
      {user?.hasInvite && teams.length > 0 ? (
        <Typography.Paragraph style={{ marginTop: 16 }}>
          <LinkButton to="/invite-member" type="link" style={{ padding: 0 }}>
            {t('chooseTeam.seeInvites')}
          </LinkButton>
        </Typography.Paragraph>
      ) : null}
    </section>
  );
}
