import type { AnchorHTMLAttributes, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { VisuallyHidden } from './visually-hidden';

export type TExternalLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'target' | 'rel'> & {
  href: string;
  children: ReactNode;
};

/** A link out of the console, in a new tab; screen readers hear that it opens one. */
export function ExternalLink({ children, ...rest }: TExternalLinkProps) {
  const { t } = useTranslation('layout');
  return (
    <a {...rest} target="_blank" rel="noopener noreferrer">
      {children}
      <VisuallyHidden> {t('newTab')}</VisuallyHidden>
    </a>
  );
}
