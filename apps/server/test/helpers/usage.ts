/** One usage batch of `ru` RUs on the account's first key, written as the gateway's flush writes it. */
import { randomUUID } from 'node:crypto';
import { apiKeys, type TDatabase } from '@rpc/db';
import { eq } from 'drizzle-orm';
import { writeUsageBatch } from '../../src/services/usage/write-usage-batch';

export async function writeTestUsage(
  db: TDatabase,
  accountId: string,
  ru: number,
  at: number,
): Promise<void> {
  const [key] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(eq(apiKeys.accountId, accountId))
    .limit(1);
  if (!key) throw new Error('the account has no key');
  await writeUsageBatch(db, {
    batchId: randomUUID(),
    createdAt: at,
    ruTableVersion: 'test',
    rows: [
      {
        accountId,
        keyId: key.id,
        chain: 'localnet',
        method: 'eth_call',
        minute: at - (at % 60_000),
        requests: 1,
        ru,
        errors: 0,
        latencyMsSum: 1,
        latencyMsMax: 1,
      },
    ],
  });
}
