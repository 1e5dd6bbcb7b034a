import { Button, Empty, List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocalizedNavigate } from '../../../lib/locale-path';
import { chooseTeam, setLoginType, useSession } from '../../../lib/session';

/**
 * SPEC §2/§6: a personal user with teams picks personal or a team; a team user with several teams picks
 * one. Kept minimal until the team issue; enough that the guard never sends anyone to a dead end.
 */
export function ChooseTeamPage() {
  const { t } = useTranslation('team');
  const navigate = useLocalizedNavigate();
  const user = useSession((s) => s.user);
  const isTeamUser = user?.userType === 'team';
  const teams = user?.teamList ?? [];

  const onPersonal = () => {
    setLoginType('personal');
    navigate('/rpc/endpoint', { replace: true });
  };
  const onTeam = (teamId: string) => {
    chooseTeam(teamId);
    setLoginType('team');
    navigate('/rpc/endpoint', { replace: true });
  };

  return (
    <section aria-labelledby="page-title">
      <Typography.Title level={1} id="page-title" style={{ fontSize: 24 }}>
        {t('chooseTeam.title')}
      </Typography.Title>
      <Typography.Paragraph>{t('chooseTeam.description')}</Typography.Paragraph>
      {!isTeamUser && (
        <List.Item
          role="none"
          actions={[
            <Button key="go" type="primary" onClick={onPersonal}>
              {t('chooseTeam.continue', { name: t('chooseTeam.personal') })}
            </Button>,
          ]}
        >
          <List.Item.Meta
            title={t('chooseTeam.personal')}
            description={t('chooseTeam.personalHint')}
          />
        </List.Item>
      )}
      {teams.length === 0 ? (
        isTeamUser && <Empty description={t('chooseTeam.empty')} />
      ) : (
        <List
          dataSource={teams}
          rowKey="teamId"
          renderItem={(team) => (
            <List.Item
              actions={[
                <Button key="go" onClick={() => onTeam(team.teamId)}>
                  {t('chooseTeam.continue', { name: team.teamName })}
                </Button>,
              ]}
            >
              <List.Item.Meta title={team.teamName} description={t('chooseTeam.teamHint')} />
            </List.Item>
          )}
        />
      )}
    </section>
  );
}
