/** The console API envelope (ARCHITECTURE.md "Console API contract"). */
import { z } from 'zod';
import { LIMIT_TYPES } from './errors';

/** params is an object, or an array holding one object (older clients send `[{}]`). */
export const ZRpcRequestSchema = z.object({
  method: z.string().min(1).max(64),
  params: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown()).max(1)]).optional(),
  id: z.union([z.string().max(64), z.number().int(), z.null()]).optional(),
});
export type TRpcRequest = z.infer<typeof ZRpcRequestSchema>;

export const ZRpcErrorSchema = z.object({
  code: z.number().int(),
  message: z.string(),
  messageZh: z.string(),
  limitType: z.enum(LIMIT_TYPES).optional(),
  attemptsExpireAt: z.number().int().optional(),
  /** field-level problems for 10004, as `path: message` lines */
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type TRpcError = z.infer<typeof ZRpcErrorSchema>;

export type TRpcResponse<R = unknown> =
  { id: string | number | null; result: R } | { id: string | number | null; error: TRpcError };

// API_PATH and TEAM_ID_HEADER live in constants.ts: the browser's request client needs them without zod.
