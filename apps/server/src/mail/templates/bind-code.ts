/** The code that binds an e-mail address to an account (hub_sendBindConfirmMail), in English and Chinese. */
import type { TLanguage } from '@rpc/contract';
import { renderMail, type TRenderedMail } from '../render';

export function renderBindCodeMail(
  language: TLanguage,
  o: { code: string; minutes: number },
): TRenderedMail {
  // The code stands alone on its line, so it is easy to copy (and for tests to find).
  if (language === 'zh') {
    return renderMail({
      subject: '您的邮箱绑定验证码',
      greeting: '您好，',
      paragraphs: [
        '请在绑定页面输入以下验证码，将此邮箱绑定到您的账户：',
        o.code,
        `验证码 ${o.minutes} 分钟内有效，且只能使用一次。`,
        '如果这不是您本人的操作，请忽略此邮件。',
      ],
      footer: 'RPC 控制台',
    });
  }
  return renderMail({
    subject: 'Your code to bind this e-mail address',
    greeting: 'Hello,',
    paragraphs: [
      'Enter this code on the binding page to add this address to your account:',
      o.code,
      `The code works once and expires in ${o.minutes} minutes.`,
      'If you did not ask for this, you can ignore this mail.',
    ],
    footer: 'RPC Console',
  });
}
