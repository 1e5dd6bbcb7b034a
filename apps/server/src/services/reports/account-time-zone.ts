/**
 * The account's report time zone (accounts.time_zone): the zone its day rollups are kept in. Set once, by the
 * account's first report call, to the caller's zone; later calls in other zones read day buckets from the hour
 * rollup instead (docs/decisions/usage-reports.md).
 */
import { accounts, type TDatabase } from '@rpc/db';
import { eq } from 'drizzle-orm';
import { rebuildDayRollups } from '../usage/rollups';

const UTC_NAMES = new Set(['UTC', 'Etc/UTC']);

/** Answers the account's report zone, setting it to `callerZone` (and rebuilding the day rollups) when unset. */
export async function settleAccountTimeZone(o: {
  db: TDatabase;
  accountId: string;
  callerZone: string;
}): Promise<string> {
  const [seen] = await o.db
    .select({ timeZone: accounts.timeZone })
    .from(accounts)
    .where(eq(accounts.id, o.accountId))
    .limit(1);
  if (seen?.timeZone) return seen.timeZone;
  return o.db.transaction(async (tx) => {
    // The lock orders this against usage flushes (lockReportZones) and a concurrent first report call.
    const [row] = await tx
      .select({ timeZone: accounts.timeZone })
      .from(accounts)
      .where(eq(accounts.id, o.accountId))
      .for('update');
    if (row?.timeZone) return row.timeZone;
    await tx.update(accounts).set({ timeZone: o.callerZone }).where(eq(accounts.id, o.accountId));
    // Until now the day rollups were written in UTC (lockReportZones): nothing to redo for a UTC caller. The
    // rebuild reads all of the account's hour rows and kept minute rows, once, holding the account's lock.
    if (!UTC_NAMES.has(o.callerZone)) await rebuildDayRollups(tx, o.accountId, o.callerZone);
    return o.callerZone;
  });
}
