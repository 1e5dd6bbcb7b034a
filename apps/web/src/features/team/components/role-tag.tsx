/** A member's role as a coloured tag, in the page's language. */
import type { TTeamRole } from '@rpc/contract';
import { Tag } from 'antd';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { TAG_STYLE } from '../../../components/tag-styles';

const ROLE_STYLE: Record<TTeamRole, CSSProperties | undefined> = {
  owner: TAG_STYLE.gold,
  admin: TAG_STYLE.blue,
  billing: TAG_STYLE.green,
  viewer: undefined,
};

export function RoleTag({ role }: { role: TTeamRole }) {
  const { t } = useTranslation('team');
  return <Tag style={ROLE_STYLE[role]}>{t(`roles.${role}`)}</Tag>;
}
