import { useTranslation } from 'react-i18next';
import { LocalizedLink } from '../lib/locale-path';

/** Product mark and name, linking home: the sign-in page outside, the overview (/rpc) in the dashboard. */
export function Logo({ compact = false, to = '/' }: { compact?: boolean; to?: string }) {
  const { t } = useTranslation();
  return (
    <LocalizedLink
      to={to}
      aria-label={t('layout:logo')}
      className="app-logo"
      style={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 8,
        minWidth: 0,
        color: 'inherit',
      }}
    >
      <img src="/favicon.svg" alt="" width={28} height={28} style={{ flex: 'none' }} />
      {!compact && (
        <strong
          style={{
            fontSize: 16,
            whiteSpace: 'nowrap',
            overflow: 'hidden',
            textOverflow: 'ellipsis',
          }}
        >
          {t('appName')}
        </strong>
      )}
    </LocalizedLink>
  );
}
