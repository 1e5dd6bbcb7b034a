/** Mails stored notices whose type the recipient chose; a bus wrapper, so it runs only after commit. */
import type { TLanguage } from '@rpc/contract';
import { users, type TDatabase, type TNoticeRow } from '@rpc/db';
import { inArray } from 'drizzle-orm';
import type { TLogger } from '../../lib/logger';
import type { TMailer } from '../../mail/mailer';
import { renderNoticeMail } from '../../mail/templates/notice';
import { mailedTypes } from './email-config';
import type { TNoticeBus } from './notice-bus';
import { toNotice } from './to-notice';

type TMailDeps = { db: TDatabase; mailer: TMailer; logger: TLogger; publicUrl: () => string };

export async function mailNotices(o: TMailDeps & { rows: TNoticeRow[] }): Promise<void> {
  const ids = [...new Set(o.rows.map((r) => r.userId))];
  if (ids.length === 0) return;
  const recipients = await o.db
    .select({
      id: users.id,
      email: users.email,
      language: users.language,
      types: users.noticeMailTypes,
    })
    .from(users)
    .where(inArray(users.id, ids));
  const byId = new Map(recipients.map((r) => [r.id, r]));
  await Promise.all(
    o.rows.map(async (row) => {
      const user = byId.get(row.userId);
      if (!user?.email) return;
      if (!(mailedTypes(user.types) as string[]).includes(row.type)) return;
      try {
        await o.mailer.send({
          to: user.email,
          ...renderNoticeMail({
            language: user.language as TLanguage,
            notice: toNotice(row),
            publicUrl: o.publicUrl(),
          }),
        });
      } catch (err) {
        o.logger.error({ err, noticeId: row.id, type: row.type }, 'notice mail failed');
      }
    }),
  );
}

/** Sockets first, mail in the background: a slow or failing SMTP server never delays or fails a raise. */
export function withNoticeMail(bus: TNoticeBus, deps: TMailDeps): TNoticeBus {
  return {
    ...bus,
    push: (rows) => {
      bus.push(rows);
      if (rows.length === 0) return;
      mailNotices({ ...deps, rows }).catch((err: unknown) =>
        deps.logger.error({ err }, 'notice mail failed'),
      );
    },
  };
}
