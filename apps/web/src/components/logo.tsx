import { useTranslation } from 'react-i18next';
import { LocalizedLink } from '../lib/locale-path';

/** Product mark and name, linking home. */
export function Logo({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <LocalizedLink
      to="/"
      aria-label={t('layout:logo')}
      style={{ display: 'inline-flex', alignItems: 'center', gap: 8, color: 'inherit' }}
    >
      <img src="/favicon.svg" alt="" width={28} height={28} />
      {!compact && <strong style={{ fontSize: 16, whiteSpace: 'nowrap' }}>{t('appName')}</strong>}
    </LocalizedLink>
  );
}
