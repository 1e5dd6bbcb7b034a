/** Which notice types are also mailed to a user (hub_getUserEmailConfig / hub_setUserEmailConfig). */
import { ERROR_CODES, NOTICE_TYPES, type TNoticeType } from '@rpc/contract';
import { users } from '@rpc/db';
import { eq } from 'drizzle-orm';
import type { TAuth, TRpcContext } from '../../rpc/context';
import { RpcError } from '../../rpc/errors';

/** file_download only makes sense in the open console (it carries a live export session): never mailed. */
export const MAILABLE_NOTICE_TYPES: TNoticeType[] = NOTICE_TYPES.filter(
  (t) => t !== 'file_download',
);

/** Until the user chooses: what touches money or stops their service, and team membership changes. */
export const DEFAULT_MAILED_NOTICE_TYPES: TNoticeType[] = [
  'deposit',
  'expired',
  'low_balance',
  'low_ru',
  'api_service_is_paused',
  'auto_renew_success',
  'auto_renew_off',
  'auto_scaling_failed',
  'free_auto_scaling_failed',
  'card_auto_scaling_failed',
  'free_card_auto_scaling_failed',
  'team_remove_member',
  'team_approve_invite',
  'team_disband',
  'team_member_leave',
  // spend-limit alerts (services/wallet/spend-limits.ts): the user set them to be told
  'normal_warn',
];

/** The stored choice (null = defaults), kept to known, mailable types in catalogue order. */
export function mailedTypes(stored: string[] | null): TNoticeType[] {
  const chosen = new Set(stored ?? DEFAULT_MAILED_NOTICE_TYPES);
  return MAILABLE_NOTICE_TYPES.filter((t) => chosen.has(t));
}

type TOptions = Pick<TRpcContext, 'db'> & { auth: TAuth };

export async function getUserEmailConfig(
  o: TOptions,
): Promise<{ types: TNoticeType[]; available: TNoticeType[] }> {
  const [row] = await o.db
    .select({ types: users.noticeMailTypes })
    .from(users)
    .where(eq(users.id, o.auth.userId));
  return { types: mailedTypes(row?.types ?? null), available: MAILABLE_NOTICE_TYPES };
}

export async function setUserEmailConfig(
  o: TOptions & { types: TNoticeType[] },
): Promise<{ types: TNoticeType[] }> {
  const bad = o.types.filter((t) => !MAILABLE_NOTICE_TYPES.includes(t));
  if (bad.length > 0) {
    throw new RpcError(ERROR_CODES.INVALID_PARAMS, {
      details: [{ path: 'types', message: `cannot be mailed: ${bad.join(', ')}` }],
    });
  }
  const types = mailedTypes(o.types);
  await o.db
    .update(users)
    .set({ noticeMailTypes: types, updatedAt: new Date() })
    .where(eq(users.id, o.auth.userId));
  return { types };
}
