/**
 * The gateway's dedicated nodes (/dn/{nodeId}/{apiKey}), read from the database into memory: every node whose data
 * still exists, with its owner, whether it serves (online or will_expired) and where its driver runs it. Re-read as a
 * whole on a short timer (nodes are few and change rarely) and on demand; between reads the gateway still refuses a
 * node at its expiry by itself (TDnRoute.expiresAt), so a missed read never serves past a term.
 */
import type { DnNodeStore, TDnRoute } from '@rpc/gateway';
import { dedicatedNodes } from '@rpc/db';
import { and, eq, isNull } from 'drizzle-orm';
import type { TDeps } from '../rpc/context';

const SERVING = new Set(['online', 'will_expired']);

export class DbDnNodeStore implements DnNodeStore {
  private routes = new Map<string, TDnRoute>();

  constructor(private readonly deps: Pick<TDeps, 'db' | 'dnDriver'>) {}

  get(nodeId: string): TDnRoute | undefined {
    return this.routes.get(nodeId);
  }

  async refresh(): Promise<void> {
    const { db, dnDriver } = this.deps;
    const rows = await db
      .select({
        id: dedicatedNodes.id,
        accountId: dedicatedNodes.accountId,
        chain: dedicatedNodes.chain,
        status: dedicatedNodes.status,
        expiresAt: dedicatedNodes.expiresAt,
        driverRef: dedicatedNodes.driverRef,
      })
      .from(dedicatedNodes)
      // Only this server's driver can say where its nodes run.
      .where(and(eq(dedicatedNodes.driver, dnDriver.name), isNull(dedicatedNodes.dataDeletedAt)));
    const next = new Map<string, TDnRoute>();
    for (const r of rows) {
      const up = r.driverRef ? dnDriver.upstreamUrl(r.driverRef) : null;
      next.set(r.id, {
        nodeId: r.id,
        accountId: r.accountId,
        chain: r.chain,
        http: up?.http ?? '',
        ws: up?.ws || null,
        // Not provisioned yet: known (the owner is told it is not serving), not served.
        serving: up !== null && SERVING.has(r.status),
        expiresAt: r.expiresAt.getTime(),
      });
    }
    this.routes = next;
  }
}
