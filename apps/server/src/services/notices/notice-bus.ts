/**
 * The realtime seam for notices. raiseNotice stores; the bus delivers stored notices to open sockets.
 * Issue 5 replaces the no-op with the WebSocket fan-out (in-process, or Redis pub/sub in scale mode).
 */
import type { TNoticeRow } from '@rpc/db';

export type TNoticeBus = { push: (notices: TNoticeRow[]) => void };

export function createNoopNoticeBus(): TNoticeBus {
  return { push: () => {} };
}
