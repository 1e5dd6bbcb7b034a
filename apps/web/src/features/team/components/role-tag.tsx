/** A member's role as a coloured tag, in the page's language. */
import type { TTeamRole } from '@rpc/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const ROLE_COLOR: Record<TTeamRole, string> = {
  owner: 'gold',
  admin: 'blue',
  billing: 'green',
  viewer: 'default',
};

export function RoleTag({ role }: { role: TTeamRole }) {
  const { t } = useTranslation('team');
  return <Tag color={ROLE_COLOR[role]}>{t(`roles.${role}`)}</Tag>;
}
