/** The team invitation mail in English and Chinese. */
import type { TLanguage } from '@rpc/contract';
import { renderMail, type TRenderedMail } from '../render';

export function renderTeamInviteMail(
  language: TLanguage,
  o: { teamName: string; inviter: string; link: string; days: number },
): TRenderedMail {
  // Names are the user's own text: the renderer escapes them in HTML, and the subject carries no name at all.
  if (language === 'zh') {
    return renderMail({
      subject: '您收到一个团队邀请',
      greeting: '您好，',
      paragraphs: [
        `${o.inviter} 邀请您加入团队「${o.teamName}」。`,
        `请登录（或使用此邮箱注册并验证）后接受或拒绝邀请。邀请 ${o.days} 天内有效。`,
        '如果您不认识邀请人，请忽略此邮件。',
      ],
      action: { label: '查看邀请', url: o.link },
      footer: 'RPC 控制台',
    });
  }
  return renderMail({
    subject: 'You are invited to a team',
    greeting: 'Hello,',
    paragraphs: [
      `${o.inviter} invited you to join the team "${o.teamName}".`,
      `Sign in (or sign up with this address and confirm it) to accept or decline. The invitation lapses in ${o.days} days.`,
      'If you do not know who sent this, you can ignore this mail.',
    ],
    action: { label: 'See the invitation', url: o.link },
    footer: 'RPC Console',
  });
}
