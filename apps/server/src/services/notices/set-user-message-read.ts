/** hub_setUserMessageRead / hub_setUserMessageReadAll: SPEC §4, marking a type marks every notice of it. */
import type { TNoticeType } from '@rpc/contract';
import { notices } from '@rpc/db';
import { and, count, eq, isNull } from 'drizzle-orm';
import type { TAuth, TRpcContext } from '../../rpc/context';

type TOptions = Pick<TRpcContext, 'db' | 'clock'> & { auth: TAuth };

export async function setUserMessageRead(
  o: TOptions & { type: TNoticeType },
): Promise<{ unreadCount: number }> {
  await o.db
    .update(notices)
    .set({ readAt: new Date(o.clock.now()) })
    .where(
      and(eq(notices.userId, o.auth.userId), eq(notices.type, o.type), isNull(notices.readAt)),
    );
  const [left] = await o.db
    .select({ n: count() })
    .from(notices)
    .where(and(eq(notices.userId, o.auth.userId), isNull(notices.readAt)));
  return { unreadCount: Number(left?.n ?? 0) };
}

export async function setUserMessageReadAll(o: TOptions): Promise<{ unreadCount: 0 }> {
  await o.db
    .update(notices)
    .set({ readAt: new Date(o.clock.now()) })
    .where(and(eq(notices.userId, o.auth.userId), isNull(notices.readAt)));
  return { unreadCount: 0 };
}
