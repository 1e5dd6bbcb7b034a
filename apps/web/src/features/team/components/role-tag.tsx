/** A member's role as a coloured tag, in the page's language. */
import type { TTeamRole } from '@rpc/contract';
import { Tag } from 'antd';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * antd's preset tag colours put 12 px text at about 2.8:1 on their tint; these keep the tints and take the
 * palette's darkest shade for the text, well past WCAG AA's 4.5:1 (axe checks it in e2e/teams.spec.ts).
 */
const ROLE_STYLE: Record<TTeamRole, CSSProperties | undefined> = {
  owner: { color: '#613400', background: '#fffbe6', borderColor: '#ffe58f' },
  admin: { color: '#002c8c', background: '#e6f4ff', borderColor: '#91caff' },
  billing: { color: '#135200', background: '#f6ffed', borderColor: '#b7eb8f' },
  viewer: undefined,
};

export function RoleTag({ role }: { role: TTeamRole }) {
  const { t } = useTranslation('team');
  return <Tag style={ROLE_STYLE[role]}>{t(`roles.${role}`)}</Tag>;
}
