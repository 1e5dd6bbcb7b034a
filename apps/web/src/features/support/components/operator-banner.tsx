/**
 * The operator's announcement at the top of every dashboard page (hub_getBanner). Dismissed banners stay dismissed
 * on this browser (by banner id, in localStorage); a link opens in a new tab, only when it is http(s).
 */
import { isSafeHttpUrl, type TBanner } from '@rpc/contract';
import { CloseOutlined } from '@ant-design/icons';
import { Alert } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExternalLink } from '../../../components/external-link';
import { currentLang } from '../../../lib/i18n';
import { trackEvent } from '../../../lib/tracking';
import { useBanner } from '../api/get-banner';

/** localStorage: ids of dismissed banners (the last few only). */
export const DISMISSED_BANNERS_KEY = 'dismissed-banners';
const KEEP_DISMISSED = 20;

function readDismissed(): string[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(DISMISSED_BANNERS_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

function rememberDismissed(id: string): void {
  try {
    const ids = [...readDismissed().filter((d) => d !== id), id].slice(-KEEP_DISMISSED);
    localStorage.setItem(DISMISSED_BANNERS_KEY, JSON.stringify(ids));
  } catch {
    // Storage full or blocked: dismissed for this page only.
  }
}

export function OperatorBanner() {
  const { t } = useTranslation('support');
  // useTranslation re-renders on a language switch, so this follows the page's language.
  const language = currentLang();
  const { data: banner } = useBanner(language);
  const [dismissed, setDismissed] = useState(readDismissed);
  if (!banner || dismissed.includes(banner.bannerId)) return null;
  return <BannerView banner={banner} onDismiss={(id) => setDismissed((d) => [...d, id])} t={t} />;
}

function BannerView({
  banner,
  onDismiss,
  t,
}: {
  banner: TBanner;
  onDismiss: (id: string) => void;
  t: (key: string) => string;
}) {
  const link = banner.linkUrl && isSafeHttpUrl(banner.linkUrl) ? banner.linkUrl : null;
  return (
    <Alert
      // antd's info and warning alerts put dark text on a pale fill: well over 4.5:1 in both.
      type={banner.level === 'warning' ? 'warning' : 'info'}
      showIcon
      banner
      style={{ marginBottom: 16 }}
      message={
        <span>
          {banner.text}
          {link && (
            <>
              {' '}
              <ExternalLink href={link} onClick={() => trackEvent('banner.link')}>
                {t('banner.link')}
              </ExternalLink>
            </>
          )}
        </span>
      }
      closable={{ closeIcon: <CloseOutlined aria-hidden />, 'aria-label': t('banner.close') }}
      onClose={() => {
        rememberDismissed(banner.bannerId);
        trackEvent('banner.dismiss');
        onDismiss(banner.bannerId);
      }}
    />
  );
}
