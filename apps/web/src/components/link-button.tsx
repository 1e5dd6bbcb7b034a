/**
 * An internal link drawn as an Ant Design button: a real <a href> (open in a new tab, copy the address), with the
 * current locale prefix, and a client-side navigation on a plain click.
 */
import type { ButtonProps } from 'antd';
import { Button } from 'antd';
import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { localePath, useRouteLang } from '../lib/locale-path';

export type TLinkButtonProps = Omit<ButtonProps, 'href' | 'onClick' | 'htmlType'> & { to: string };

export function LinkButton({ to, ...rest }: TLinkButtonProps) {
  const lang = useRouteLang();
  const navigate = useNavigate();
  const href = localePath(to, lang);
  const onClick = (e: MouseEvent<HTMLElement>) => {
    // Let the browser handle new-tab and new-window clicks.
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    void navigate(href);
  };
  return <Button {...rest} href={href} onClick={onClick} />;
}
