/** The icon of a notice type (SPEC §3), coloured by its severity. */
import {
  CheckCircleOutlined,
  ClockCircleOutlined,
  CloseCircleOutlined,
  CreditCardOutlined,
  CrownOutlined,
  DeleteOutlined,
  DownloadOutlined,
  ExclamationCircleOutlined,
  GiftOutlined,
  HourglassOutlined,
  KeyOutlined,
  PauseCircleOutlined,
  RocketOutlined,
  ShoppingOutlined,
  SyncOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  UserAddOutlined,
  UserDeleteOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import type { ComponentType, CSSProperties } from 'react';
import type { TNoticeIcon, TNoticeSeverity } from '../lib/notice-text';

const ICONS: Record<
  TNoticeIcon,
  ComponentType<{ style?: CSSProperties; 'aria-hidden'?: boolean }>
> = {
  wallet: WalletOutlined,
  clock: ClockCircleOutlined,
  thunderbolt: ThunderboltOutlined,
  sync: SyncOutlined,
  hourglass: HourglassOutlined,
  gift: GiftOutlined,
  download: DownloadOutlined,
  rocket: RocketOutlined,
  pause: PauseCircleOutlined,
  check: CheckCircleOutlined,
  exclamation: ExclamationCircleOutlined,
  close: CloseCircleOutlined,
  crown: CrownOutlined,
  shopping: ShoppingOutlined,
  'credit-card': CreditCardOutlined,
  'user-delete': UserDeleteOutlined,
  'user-add': UserAddOutlined,
  team: TeamOutlined,
  key: KeyOutlined,
  delete: DeleteOutlined,
};

export const SEVERITY_COLOR: Record<TNoticeSeverity, string> = {
  success: '#52c41a',
  warn: '#faad14',
  error: '#ff4d4f',
};

export function NoticeIcon({ icon, severity }: { icon: TNoticeIcon; severity: TNoticeSeverity }) {
  const Icon = ICONS[icon];
  return <Icon aria-hidden style={{ color: SEVERITY_COLOR[severity], fontSize: 20 }} />;
}
