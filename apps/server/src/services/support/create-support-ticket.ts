/**
 * Files a support ticket (POST /support/ticket): fields checked with the contract's schema, the attachment sniffed
 * from its bytes, an API key accepted only when it is the acting account's; then the ticket and the user's
 * normal_success notice are written in one transaction, and the operator address is mailed.
 */
import {
  TICKET_ATTACHMENT_MAX_BYTES,
  ZSupportTicketFieldsSchema,
  formatTicketNumber,
  type TSupportTicketCreated,
} from '@rpc/contract';
import { apiKeys, supportTickets, users } from '@rpc/db';
import { and, eq, isNull } from 'drizzle-orm';
import type { TDeps } from '../../rpc/context';
import { renderSupportTicketMail } from '../../mail/templates/support-ticket';
import { raiseNotice } from '../notices/raise-notice';
import { sanitiseAttachmentName, sniffAttachmentType } from './sniff-attachment';
import { SupportError, type TSupportCaller } from './support-error';

export type TTicketAttachmentInput = { filename: string; bytes: Buffer };

export type TCreateSupportTicketOptions = {
  deps: Pick<TDeps, 'db' | 'clock' | 'mailer' | 'noticeBus' | 'logger' | 'throttle' | 'config'>;
  caller: TSupportCaller & { account: { id: string; kind: 'personal' | 'team' }; ip: string };
  /** the form's text fields as sent */
  fields: Record<string, string>;
  attachment: TTicketAttachmentInput | null;
};

export async function createSupportTicket(
  o: TCreateSupportTicketOptions,
): Promise<TSupportTicketCreated> {
  const { deps, caller } = o;
  const parsed = ZSupportTicketFieldsSchema.safeParse(o.fields);
  if (!parsed.success) {
    throw new SupportError(
      'fields_invalid',
      parsed.error.issues.slice(0, 20).map((i) => ({
        path: i.path.map(String).join('.') || '(root)',
        message: i.message,
      })),
    );
  }
  const fields = parsed.data;

  let attachment: { name: string; type: string; bytes: Buffer } | null = null;
  if (o.attachment) {
    if (o.attachment.bytes.length > TICKET_ATTACHMENT_MAX_BYTES)
      throw new SupportError('attachment_too_large');
    const type = sniffAttachmentType(o.attachment.bytes);
    if (!type) throw new SupportError('attachment_type');
    attachment = {
      name: sanitiseAttachmentName(o.attachment.filename, type),
      type,
      bytes: o.attachment.bytes,
    };
  }

  if (fields.apiKeyId) {
    // The account is in the where: another account's key is as unknown as a made-up id.
    const [key] = await deps.db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(
        and(
          eq(apiKeys.id, fields.apiKeyId),
          eq(apiKeys.accountId, caller.account.id),
          isNull(apiKeys.deletedAt),
        ),
      )
      .limit(1);
    if (!key) throw new SupportError('api_key_unknown');
  }

  // Only well-formed tickets count: each one mails the operator, which is what the limit protects.
  await deps.throttle.enforce({
    action: 'supportTicket',
    email: `user:${caller.userId}`,
    ip: caller.ip,
    limitType: 'type1',
  });

  const now = deps.clock.now();
  const { ticket, notices } = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(supportTickets)
      .values({
        accountId: caller.account.id,
        userId: caller.userId,
        category: fields.category,
        subject: fields.subject,
        body: fields.body,
        apiKeyId: fields.apiKeyId ?? null,
        attachmentName: attachment?.name ?? null,
        attachmentType: attachment?.type ?? null,
        attachment: attachment?.bytes ?? null,
        createdAt: new Date(now),
        updatedAt: new Date(now),
      })
      .returning({ id: supportTickets.id, number: supportTickets.number });
    if (!row) throw new Error('support ticket insert returned nothing');
    const number = formatTicketNumber(row.number);
    const raised = await raiseNotice({
      db: tx,
      at: now,
      type: 'normal_success',
      userId: caller.userId,
      accountId: caller.account.id,
      title: `Ticket ${number} received`,
      content: 'Our support team has your ticket and will answer by e-mail.',
      expand: { name: number },
    });
    return { ticket: { id: row.id, number }, notices: raised };
  });
  deps.noticeBus.push(notices);

  const [user] = await deps.db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, caller.userId))
    .limit(1);
  const mail = renderSupportTicketMail({
    number: ticket.number,
    category: fields.category,
    subject: fields.subject,
    body: fields.body,
    accountId: caller.account.id,
    accountKind: caller.account.kind,
    userId: caller.userId,
    userEmail: user?.email ?? null,
    apiKeyId: fields.apiKeyId ?? null,
    attachment: attachment
      ? { name: attachment.name, type: attachment.type, size: attachment.bytes.length }
      : null,
    createdAt: now,
  });
  try {
    await deps.mailer.send({ ...mail, to: deps.config.supportEmail });
  } catch (err) {
    // The ticket is stored and listed either way; the operator also finds it in the database.
    deps.logger.error({ err, ticket: ticket.number }, 'support ticket mail failed');
  }
  return { ticketId: ticket.id, number: ticket.number, createdAt: now };
}
