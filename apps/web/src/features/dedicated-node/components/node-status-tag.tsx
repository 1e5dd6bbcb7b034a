/** A node's SPEC §3 status as a tag: its name in words with an icon, in WCAG AA colours. */
import {
  CheckCircleOutlined,
  ClockCircleOutlined,
  CloseCircleOutlined,
  ExclamationCircleOutlined,
  PauseCircleOutlined,
} from '@ant-design/icons';
import type { TDnStatus } from '@rpc/contract';
import { Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { STATUS_TAG_STYLE } from '../utils/node-status';

const STATUS_ICON: Record<TDnStatus, ReactNode> = {
  online: <CheckCircleOutlined aria-hidden />,
  stopped: <PauseCircleOutlined aria-hidden />,
  pending: <ClockCircleOutlined aria-hidden />,
  will_expired: <ExclamationCircleOutlined aria-hidden />,
  expired: <CloseCircleOutlined aria-hidden />,
};

export function NodeStatusTag({ status }: { status: TDnStatus }) {
  const { t } = useTranslation('dedicated-node');
  return (
    <Tag style={STATUS_TAG_STYLE[status]} icon={STATUS_ICON[status]}>
      {t(`status.${status}`)}
    </Tag>
  );
}
