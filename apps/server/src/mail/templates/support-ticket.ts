/**
 * The mail to the operator address for a new support ticket. Plain text only: the user's subject and body go in
 * as text, never as HTML, and the subject line keeps no control characters (no header can be added through it).
 */
import type { TRenderedMail } from '../render';

export type TSupportTicketMailInput = {
  number: string;
  category: string;
  subject: string;
  body: string;
  accountId: string;
  accountKind: 'personal' | 'team';
  userId: string;
  userEmail: string | null;
  apiKeyId: string | null;
  attachment: { name: string; type: string; size: number } | null;
  createdAt: number;
};

/** One line of header-safe text: control and line-separator characters become spaces, at most `max` characters. */
export function headerSafe(value: string, max = 150): string {
  return value
    .replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]+/g, ' ')
    .trim()
    .slice(0, max);
}

export function renderSupportTicketMail(t: TSupportTicketMailInput): TRenderedMail {
  const lines = [
    `Support ticket ${t.number}`,
    '',
    `Category:   ${t.category}`,
    `Subject:    ${headerSafe(t.subject, 300)}`,
    `Account:    ${t.accountId} (${t.accountKind})`,
    `User:       ${t.userId}${t.userEmail ? ` <${headerSafe(t.userEmail)}>` : ''}`,
    `API key:    ${t.apiKeyId ?? '-'}`,
    `Attachment: ${t.attachment ? `${t.attachment.name} (${t.attachment.type}, ${t.attachment.size} bytes; stored with the ticket)` : '-'}`,
    `Filed at:   ${new Date(t.createdAt).toISOString()}`,
    '',
    '----- message -----',
    t.body,
    '----- end -----',
  ];
  return {
    subject: headerSafe(`[Support ${t.number}] ${t.category}: ${t.subject}`, 200),
    text: lines.join('\n'),
    // No HTML part at all (nodemailer leaves an empty one out): the text above is the whole mail.
    html: '',
  };
}
