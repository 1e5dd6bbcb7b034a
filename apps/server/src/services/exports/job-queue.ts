/**
 * The job engine behind background work: pg-boss, on whichever database the server opened (PGlite in the
 * embedded default, PostgreSQL in scale mode), through the same client drizzle uses (@rpc/db rawSqlOf). Jobs
 * live in pg-boss's own schema (`pgboss`), so a queued job survives a restart and any instance may run it.
 * Services see only this small interface (docs/decisions/exports.md).
 */
import { rawSqlOf, type TDatabase } from '@rpc/db';
import PgBoss from 'pg-boss';
import type { TLogger } from '../../lib/logger';

export type TJobHandler = (data: Record<string, unknown>) => Promise<void>;

export type TJobQueue = {
  /** Queues a job; with a singletonKey, a second one while the first still waits is dropped (null). */
  send: (
    name: string,
    data: Record<string, unknown>,
    opts?: { singletonKey?: string },
  ) => Promise<string | null>;
  /** Runs `handler` for every job of `name`, in this process, until stop(). */
  work: (name: string, handler: TJobHandler) => Promise<void>;
  /** Jobs waiting (queued or waiting for a retry) per queue, across every process; {} before start(). */
  depth: () => Promise<Record<string, number>>;
  start: () => Promise<void>;
  stop: () => Promise<void>;
};

export type TPgBossQueueOptions = {
  db: TDatabase;
  logger: TLogger;
  /** How often an idle worker looks for jobs; a send in this process wakes its workers at once. */
  pollingIntervalSeconds?: number;
};

export function createPgBossQueue(o: TPgBossQueueOptions): TJobQueue {
  const raw = rawSqlOf(o.db);
  const boss = new PgBoss({
    db: { executeSql: (text: string, values: unknown[]) => raw(text, values) },
    schema: 'pgboss',
    // No cron schedules here; maintenance (expiry, retention) stays on.
    schedule: false,
  });
  boss.on('error', (err: unknown) => o.logger.error({ err }, 'job engine error'));
  const queues = new Set<string>();
  const workerIds = new Map<string, string>();
  let starting: Promise<void> | null = null;
  let stopped = false;

  const start = () => {
    // Two instances starting on one database race to install pg-boss's schema (a deadlock on PostgreSQL, an
    // aborted transaction on PGlite): the loser tries again once the winner is done.
    starting ??= retrying(() => boss.start().then(() => undefined), o.logger, 'job engine start');
    return starting;
  };

  const ensureQueue = async (name: string) => {
    await start();
    if (queues.has(name)) return;
    // 'short': at most one waiting job per singletonKey; an export re-sent after a restart is not doubled.
    await retrying(
      async () => {
        if (await boss.getQueue(name)) return;
        await boss.createQueue(name, { name, policy: 'short', retryLimit: 2, retryDelay: 5 });
      },
      o.logger,
      'job queue create',
    );
    queues.add(name);
  };

  return {
    start,
    send: async (name, data, opts = {}) => {
      if (stopped) throw new Error('job queue stopped');
      await ensureQueue(name);
      const id = await boss.send(
        name,
        data,
        opts.singletonKey ? { singletonKey: opts.singletonKey } : {},
      );
      const workerId = workerIds.get(name);
      if (workerId) boss.notifyWorker(workerId);
      return id;
    },
    work: async (name, handler) => {
      await ensureQueue(name);
      const id = await boss.work<Record<string, unknown>>(
        name,
        { pollingIntervalSeconds: o.pollingIntervalSeconds ?? 2 },
        async (jobs) => {
          for (const job of jobs) await handler(job.data);
        },
      );
      workerIds.set(name, id);
    },
    depth: async () => {
      // Never starts the engine (a scrape must not install pg-boss's schema): only once this process did.
      if (!starting || stopped) return {};
      await starting;
      const out: Record<string, number> = {};
      for (const q of await boss.getQueues()) out[q.name] = await boss.getQueueSize(q.name);
      return out;
    },
    stop: async () => {
      stopped = true;
      if (!starting) return;
      await starting.catch(() => {});
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}

/** Runs `step` up to 5 times, 100–800 ms apart, for races between instances on one database. */
async function retrying<T>(step: () => Promise<T>, logger: TLogger, what: string): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (err) {
      if (attempt >= 5) throw err;
      logger.warn({ err, attempt }, `${what} failed; trying again`);
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** (attempt - 1)));
    }
  }
}
