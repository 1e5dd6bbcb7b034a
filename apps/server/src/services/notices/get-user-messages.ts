/** hub_getUserMessages: the caller's notices, newest first, keyset-paged on (createdAt, id). */
import { ERROR_CODES, type TParams, type TResult } from '@rpc/contract';
import { notices } from '@rpc/db';
import { and, count, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { TAuth, TRpcContext } from '../../rpc/context';
import { RpcError } from '../../rpc/errors';
import { toNotice } from './to-notice';

type TOptions = Pick<TRpcContext, 'db'> & { auth: TAuth } & TParams<'hub_getUserMessages'>;

const CURSOR = /^(\d{1,15})\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The cursor names the last row of a page: `<createdAt ms>.<id>`. Opaque to clients. */
export function encodeCursor(createdAt: Date, id: string): string {
  return `${createdAt.getTime()}.${id}`;
}

function decodeCursor(cursor: string): { at: Date; id: string } {
  const m = CURSOR.exec(cursor);
  if (!m) {
    throw new RpcError(ERROR_CODES.INVALID_PARAMS, {
      details: [{ path: 'cursor', message: 'not a cursor this method returned' }],
    });
  }
  return { at: new Date(Number(m[1])), id: m[2]! };
}

export async function getUserMessages(o: TOptions): Promise<TResult<'hub_getUserMessages'>> {
  const mine = eq(notices.userId, o.auth.userId);
  const where: SQL[] = [mine];
  if (o.unread) where.push(isNull(notices.readAt));
  if (o.type) where.push(eq(notices.type, o.type));
  // 0 (or '0', or '') is the first page.
  if (typeof o.cursor === 'string' && o.cursor !== '' && o.cursor !== '0') {
    const c = decodeCursor(o.cursor);
    where.push(
      sql`(${notices.createdAt}, ${notices.id}) < (${c.at.toISOString()}::timestamptz, ${c.id}::uuid)`,
    );
  }
  const [rows, unread] = await Promise.all([
    o.db
      .select()
      .from(notices)
      .where(and(...where))
      .orderBy(desc(notices.createdAt), desc(notices.id))
      .limit(o.perPage + 1),
    o.db
      .select({ type: notices.type, n: count() })
      .from(notices)
      .where(and(mine, isNull(notices.readAt)))
      .groupBy(notices.type),
  ]);
  const page = rows.slice(0, o.perPage);
  const last = page.at(-1);
  const unreadByType = Object.fromEntries(unread.map((u) => [u.type, Number(u.n)]));
  return {
    list: page.map(toNotice),
    nextCursor: rows.length > o.perPage && last ? encodeCursor(last.createdAt, last.id) : null,
    unreadCount: unread.reduce((sum, u) => sum + Number(u.n), 0),
    unreadByType,
  };
}
