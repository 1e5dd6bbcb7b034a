/**
 * The heading and body of a public account page (sign-in, registration, the third-party callbacks); the default
 * layout supplies the card around it. Plain HTML: the sign-in page draws no antd (components/ui/).
 */
import type { ReactNode } from 'react';
import './ui/ui.css';

type TAuthCardProps = { title?: string; children: ReactNode };

export function AuthCard({ title, children }: TAuthCardProps) {
  return (
    <section>
      {title !== undefined && <h1 className="ui-title">{title}</h1>}
      {children}
    </section>
  );
}
