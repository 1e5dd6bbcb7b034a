/** Account mails (confirm, reset, set password) in English and Chinese. */
import type { TLanguage } from '@rpc/contract';
import { renderMail, type TRenderedMail } from '../render';

export type TAccountMailKind = 'email_confirm' | 'password_reset' | 'password_set';

type TTexts = { subject: string; intro: string; action: string; expiry: string };

const TEXTS: Record<TAccountMailKind, Record<TLanguage, TTexts>> = {
  email_confirm: {
    en: {
      subject: 'Confirm your e-mail address',
      intro: 'Thanks for signing up. Please confirm your e-mail address to activate your account.',
      action: 'Confirm e-mail',
      expiry: 'This link expires in 24 hours and works once.',
    },
    zh: {
      subject: '请验证您的邮箱地址',
      intro: '感谢注册。请验证您的邮箱地址以激活账户。',
      action: '验证邮箱',
      expiry: '该链接 24 小时内有效，且只能使用一次。',
    },
  },
  password_reset: {
    en: {
      subject: 'Reset your password',
      intro: 'We received a request to reset your password.',
      action: 'Reset password',
      expiry: 'This link expires in 1 hour and works once.',
    },
    zh: {
      subject: '重置您的密码',
      intro: '我们收到了重置您密码的请求。',
      action: '重置密码',
      expiry: '该链接 1 小时内有效，且只能使用一次。',
    },
  },
  password_set: {
    en: {
      subject: 'Set your password',
      intro: 'Set a password to sign in with your e-mail address.',
      action: 'Set password',
      expiry: 'This link expires in 1 hour and works once.',
    },
    zh: {
      subject: '设置您的密码',
      intro: '设置密码后即可使用邮箱登录。',
      action: '设置密码',
      expiry: '该链接 1 小时内有效，且只能使用一次。',
    },
  },
};

const COMMON: Record<TLanguage, { greeting: string; ignore: string; footer: string }> = {
  en: {
    greeting: 'Hello,',
    ignore: 'If you did not ask for this, you can ignore this mail.',
    footer: 'RPC Console',
  },
  zh: {
    greeting: '您好，',
    ignore: '如果这不是您本人的操作，请忽略此邮件。',
    footer: 'RPC 控制台',
  },
};

export function renderAccountMail(
  kind: TAccountMailKind,
  language: TLanguage,
  link: string,
): TRenderedMail {
  const t = TEXTS[kind][language];
  const c = COMMON[language];
  return renderMail({
    subject: t.subject,
    greeting: c.greeting,
    paragraphs: [t.intro, t.expiry, c.ignore],
    action: { label: t.action, url: link },
    footer: c.footer,
  });
}
