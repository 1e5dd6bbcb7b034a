/** antd's Button for the plain pages: default, primary, link and text, with a busy state that keeps focus. */
import type { ButtonHTMLAttributes, MouseEvent, ReactNode, Ref } from 'react';
import './ui.css';

export type TButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> & {
  variant?: 'default' | 'primary' | 'link' | 'text';
  htmlType?: 'button' | 'submit';
  isBlock?: boolean;
  /** a spinner in place of the icon; presses are ignored until it ends */
  isLoading?: boolean;
  icon?: ReactNode;
  ref?: Ref<HTMLButtonElement>;
};

export function Button({
  variant = 'default',
  htmlType = 'button',
  isBlock = false,
  isLoading = false,
  icon,
  className,
  children,
  onClick,
  ...rest
}: TButtonProps) {
  const classes = ['ui-btn', `ui-btn-${variant}`, isBlock && 'ui-btn-block', className]
    .filter(Boolean)
    .join(' ');
  const onPress = (event: MouseEvent<HTMLButtonElement>) => {
    if (isLoading) {
      event.preventDefault();
      return;
    }
    onClick?.(event);
  };
  return (
    <button
      {...rest}
      type={htmlType}
      className={classes}
      aria-busy={isLoading || undefined}
      onClick={onPress}
    >
      {isLoading ? <span className="ui-spinner" aria-hidden="true" /> : icon}
      {children !== undefined && children !== null && <span>{children}</span>}
    </button>
  );
}
