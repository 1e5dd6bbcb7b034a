/** Which team a screen shows: a labelled select over the user's teams, each with the user's role in it. */
import type { TTeam } from '@rpc/contract';
import { Flex, Select } from 'antd';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/session';

/**
 * The team a screen opens on: the one asked for (a link's ?teamId=), else the team the console acts for, else the
 * first team.
 */
export function pickDefaultTeam(
  teams: readonly TTeam[],
  wanted: string | null,
  acting: string | null,
): TTeam | null {
  return (
    teams.find((team) => team.teamId === wanted) ??
    teams.find((team) => team.teamId === acting) ??
    teams[0] ??
    null
  );
}

/** The acting team's id in a team login, else null. */
export function useActingTeamId(): string | null {
  return useSession((s) => (s.loginType === 'team' ? s.teamId : null));
}

export function TeamSelect({
  teams,
  value,
  onChange,
}: {
  teams: readonly TTeam[];
  value: string | null;
  onChange: (teamId: string) => void;
}) {
  const { t } = useTranslation('team');
  const id = useId();
  const options = teams.map((team) => {
    const label = `${team.teamName} · ${t(`roles.${team.role}`)}`;
    return { value: team.teamId, label, title: label };
  });
  return (
    <Flex vertical gap={4} style={{ minWidth: 0, maxWidth: '100%' }}>
      <label htmlFor={id}>{t('select.label')}</label>
      <Select
        id={id}
        value={value ?? undefined}
        options={options}
        onChange={onChange}
        style={{ minWidth: 200, maxWidth: '100%' }}
        popupMatchSelectWidth={false}
        showSearch
        optionFilterProp="label"
      />
    </Flex>
  );
}
