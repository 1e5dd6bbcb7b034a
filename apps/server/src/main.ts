/**
 * `npm start`: the embedded default in one process — console API, gateway wired to the database, and a local
 * Hardhat chain as the `localnet` upstream — with graceful shutdown (gateway → server → localnet → database).
 * ROLE=console or ROLE=gateway runs one part only (scale mode, docs/scale-mode.md). GATEWAY_WORKERS above 1
 * makes this the primary of that many gateway worker processes on GATEWAY_PORT (gateway/gateway-workers.ts).
 */
import cluster from 'node:cluster';
import net from 'node:net';
import path from 'node:path';
import { openDatabase, type TOpenedDatabase } from '@rpc/db';
import { loadChains, startLocalnet, withUpstreams, type TLocalnet } from '@rpc/gateway';
import { parseEnv, type TEnv } from './env';
import {
  startGatewayWorkers,
  WORKER_SLOT_ENV,
  type TGatewayWorkers,
} from './gateway/gateway-workers';
import { startDbGateway, type TDbGateway } from './gateway/start-db-gateway';
import { createServer } from './server';

let env: TEnv;
try {
  env = parseEnv();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}

const runsConsole = env.ROLE !== 'gateway';
const runsGateway = env.ROLE !== 'console';
/** This process forks the gateway workers instead of serving the gateway itself. */
const forksWorkers = runsGateway && env.GATEWAY_WORKERS > 1 && cluster.isPrimary;
/** A worker's slot, stable across its restarts (names its usage journal). */
const workerSlot = cluster.isWorker ? process.env[WORKER_SLOT_ENV] : undefined;

function listenProbe(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(undefined));
    probe.listen(port, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : port));
    });
  });
}

/**
 * LOCALNET_PORT when given (a failure is final). Otherwise 8545 when free, and when that fails (another copy
 * took it first) a port the OS picks, so several copies can start side by side.
 */
async function maybeStartLocalnet(): Promise<TLocalnet | undefined> {
  if (!runsGateway || !env.LOCALNET || process.env.UPSTREAM_LOCALNET_HTTP) return undefined;
  if (process.env.LOCALNET_PORT) return startLocalnet({ port: env.LOCALNET_PORT });
  const preferred = await listenProbe(env.LOCALNET_PORT);
  if (preferred !== undefined) {
    try {
      return await startLocalnet({ port: preferred });
    } catch {
      // taken meanwhile: fall through to a free port
    }
  }
  const free = await listenProbe(0);
  if (free === undefined) throw new Error('no free port for the localnet chain');
  return startLocalnet({ port: free });
}

let database: TOpenedDatabase | undefined;
let localnet: TLocalnet | undefined;
let consoleServer: Awaited<ReturnType<typeof createServer>> | undefined;
let gateway: TDbGateway | TGatewayWorkers | undefined;
let consoleUrl = '';
try {
  // The chain takes seconds to boot: start it while the database opens and migrates.
  [database, localnet] = await Promise.all([
    openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR }),
    maybeStartLocalnet(),
  ]);
  const node = localnet;
  const chains = loadChains().map((c) =>
    c.id === 'localnet' && node ? withUpstreams(c, { full: [node.url] }, [node.wsUrl]) : c,
  );
  // A gateway-only process builds the same dependencies (database, channel, logger) but does not listen.
  consoleServer = await createServer({ env, db: database.db, chains });
  if (runsConsole) consoleUrl = await consoleServer.start();
  if (forksWorkers)
    gateway = await startGatewayWorkers({
      count: env.GATEWAY_WORKERS,
      logger: consoleServer.deps.logger,
      // The workers reach this process's local chain rather than starting their own.
      env: node ? { UPSTREAM_LOCALNET_HTTP: node.url, UPSTREAM_LOCALNET_WS: node.wsUrl } : {},
    });
  else if (runsGateway)
    gateway = await startDbGateway({
      deps: consoleServer.deps,
      port: env.GATEWAY_PORT,
      host: env.HOST,
      trustProxy: env.GATEWAY_TRUST_PROXY,
      // A worker's scrapes answer every worker's metrics (its primary gathers them).
      metricsAcrossWorkers: cluster.isWorker,
      // Scale mode: one RU pool per account across every gateway process (leases in Redis).
      ...(env.REDIS_URL
        ? {
            redis: {
              url: env.REDIS_URL,
              // A worker's siblings count from the start, before their heartbeats reach Redis.
              minLiveProcesses: cluster.isWorker ? env.GATEWAY_WORKERS : 1,
            },
          }
        : {}),
      // One journal directory per gateway process (per port on a host): usage survives kill -9.
      usageJournalDir: path.resolve(
        env.DATA_DIR,
        'usage-journal',
        `gateway-${env.GATEWAY_PORT}${workerSlot === undefined ? '' : `-w${workerSlot}`}`,
      ),
    });
} catch (err) {
  // One clear line (e.g. "listen EADDRINUSE: address already in use 0.0.0.0:3000") rather than a stack.
  console.error(`Failed to start: ${(err as Error).message}`);
  await gateway?.stop().catch(() => {});
  await consoleServer?.stop().catch(() => {});
  await localnet?.stop().catch(() => {});
  await database?.close().catch(() => {});
  process.exit(1);
}

const running = { server: consoleServer, gateway, localnet, database };
let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) {
    // A second signal means "now".
    process.exit(1);
  }
  stopping = true;
  running.server.deps.logger.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await running.gateway?.stop(); // final usage flush while the database is still open
    await running.server.stop();
    await running.localnet?.stop();
    await running.database.close();
    process.exit(0);
  } catch (err) {
    running.server.deps.logger.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
// A worker whose primary is gone stops too (its usage flushed), rather than serving on unsupervised.
if (cluster.isWorker) process.on('disconnect', () => void shutdown('disconnect'));

// Only once the signal handlers are in place: a supervisor may send SIGTERM as soon as it reads these lines.
// Exactly these two lines on stdout tell a user (and the e2e suite) where things are.
// Workers stay quiet: their primary prints the one gateway line.
if (!cluster.isWorker)
  process.stdout.write(
    `${runsConsole ? `Console: ${consoleUrl}\n` : ''}${gateway ? `Gateway: ${gateway.url}\n` : ''}`,
  );
