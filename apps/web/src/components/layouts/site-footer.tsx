import { useTranslation } from 'react-i18next';
import { HELP_LINKS } from '../../lib/help-links';
import { ExternalLink } from '../external-link';

/** Bottom of every page: the terms of service and the privacy policy. */
export function SiteFooter() {
  const { t } = useTranslation('layout');
  const links = [
    { key: 'terms', href: HELP_LINKS.terms },
    { key: 'privacy', href: HELP_LINKS.privacy },
  ] as const;
  return (
    <footer
      className="site-footer"
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        justifyContent: 'center',
        gap: '4px 20px',
        padding: '16px',
        fontSize: 13,
        color: 'var(--color-text-description)',
      }}
    >
      <nav aria-label={t('footer.label')}>
        <ul
          style={{
            display: 'flex',
            flexWrap: 'wrap',
            justifyContent: 'center',
            gap: '4px 20px',
            listStyle: 'none',
            margin: 0,
            padding: 0,
          }}
        >
          {links.map((link) => (
            <li key={link.key}>
              <ExternalLink
                href={link.href}
                style={{ color: 'var(--color-text-description)', textDecoration: 'underline' }}
              >
                {t(`footer.${link.key}`)}
              </ExternalLink>
            </li>
          ))}
        </ul>
      </nav>
    </footer>
  );
}
