/** The mail sent for a notice type the user chose (hub_setUserEmailConfig), in English or Chinese. */
import type { TLanguage } from '@rpc/contract';
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

/**
 * The notice's own server text (title, content) with a localised frame. Per-type localised wording lives in
 * the web app (it builds it from `expand`); the server text is what SPEC §8 shows for types without one.
 */
export function renderNoticeMail(o: {
  language: TLanguage;
  title: string;
  content: string;
  publicUrl: string;
}): TRenderedMail {
  const t = TEXTS[o.language];
  const localePrefix = o.language === 'zh' ? '/zh' : '';
  return renderMail({
    subject: `[${t.prefix}] ${o.title}`,
    greeting: t.greeting,
    paragraphs: [t.intro, o.title, o.content].filter((p) => p !== ''),
    action: { label: t.action, url: `${o.publicUrl}${localePrefix}/rpc/notifications` },
    footer: t.footer,
  });
}
