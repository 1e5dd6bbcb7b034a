/** A stored notice row as the contract's notice (API answers and socket frames alike). */
import type { TNotice, TNoticeType } from '@rpc/contract';
import type { TNoticeRow } from '@rpc/db';

export function toNotice(row: TNoticeRow): TNotice {
  return {
    id: row.id,
    type: row.type as TNoticeType,
    title: row.title,
    content: row.content,
    createdAt: row.createdAt.getTime(),
    read: row.readAt !== null,
    teamId: row.teamId,
    expand: row.expand,
  };
}
