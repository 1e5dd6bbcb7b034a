/** antd's Alert (with its icon) for the plain pages. */
import type { ReactNode } from 'react';
import { ErrorIcon, InfoIcon, WarningIcon } from './icons';
import './ui.css';

type TAlertProps = {
  type: 'info' | 'warning' | 'error';
  title: ReactNode;
  description?: ReactNode;
  /** `alert` when it appears in answer to what the user did and must be heard at once */
  role?: 'alert' | 'status';
  className?: string;
};

const ICONS = { info: InfoIcon, warning: WarningIcon, error: ErrorIcon };

export function Alert({ type, title, description, role, className }: TAlertProps) {
  const TypeIcon = ICONS[type];
  const classes = [
    'ui-alert',
    `ui-alert-${type}`,
    description !== undefined && 'ui-alert-with-description',
    className,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={classes} role={role}>
      <TypeIcon />
      <div>
        <div className="ui-alert-title">{title}</div>
        {description !== undefined && <div>{description}</div>}
      </div>
    </div>
  );
}

/** A line across with a word in the middle ("or"). */
export function Divider({ children }: { children: ReactNode }) {
  return (
    <div className="ui-divider" role="separator">
      <span>{children}</span>
    </div>
  );
}
