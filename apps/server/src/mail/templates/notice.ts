/** The mail sent for a notice type the user chose (hub_setUserEmailConfig), in English or Chinese. */
import type { TLanguage, TNoticeTextSource } from '@rpc/contract';
import { LANGUAGE_TAGS, renderNoticeText } from '@rpc/contract';
import { NOTICE_TEXTS } from '@rpc/contract/notice-texts';
import { renderMail, type TRenderedMail } from '../render';

const TEXTS: Record<
  TLanguage,
  { prefix: string; greeting: string; intro: string; action: string; footer: string }
> = {
  en: {
    prefix: 'Notice',
    greeting: 'Hello,',
    intro: 'You have a new notice in the RPC Console.',
    action: 'Open notifications',
    footer: 'You receive this mail because of your notice e-mail settings in the console.',
  },
  zh: {
    prefix: '通知',
    greeting: '您好，',
    intro: '您有一条新通知。',
    action: '查看通知',
    footer: '您收到此邮件是因为您在控制台的通知邮件设置。',
  },
};

const timeFormats = new Map<TLanguage, Intl.DateTimeFormat>();

/** A time in a mail: the reader's language, in UTC and saying so ("Jan 31, 2026, 12:05 UTC", "2026年1月31日 UTC 12:05"). */
export function formatMailTime(ms: number, language: TLanguage): string {
  let format = timeFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(LANGUAGE_TAGS[language], {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone: 'UTC',
      timeZoneName: 'short',
    });
    timeFormats.set(language, format);
  }
  return format.format(ms);
}

/**
 * The notice in the reader's language with a localised frame: the per-type wording the web app shows, from the
 * contract (renderNoticeText), or the server's own text where SPEC §8 says so (server-text types, old notices).
 */
export function renderNoticeMail(o: {
  language: TLanguage;
  notice: TNoticeTextSource;
  publicUrl: string;
}): TRenderedMail {
  const t = TEXTS[o.language];
  const { title, content } = renderNoticeText(o.notice, {
    lang: o.language,
    texts: NOTICE_TEXTS[o.language],
    formatDateTime: (ms) => formatMailTime(ms, o.language),
  });
  const localePrefix = o.language === 'zh' ? '/zh' : '';
  return renderMail({
    // One line: a value from `expand` never starts a header of its own.
    subject: `[${t.prefix}] ${title}`.replace(/\s+/g, ' ').trim(),
    greeting: t.greeting,
    paragraphs: [t.intro, title, content].filter((p) => p !== ''),
    action: { label: t.action, url: `${o.publicUrl}${localePrefix}/rpc/notifications` },
    footer: t.footer,
  });
}
