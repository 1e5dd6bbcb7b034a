/**
 * `npm start`: the embedded default in one process — console API, gateway wired to the database, and a local
 * Hardhat chain as the `localnet` upstream — with graceful shutdown (gateway → server → localnet → database).
 * ROLE=console or ROLE=gateway runs one part only (scale mode, docs/scale-mode.md).
 */
import net from 'node:net';
import path from 'node:path';
import { openDatabase, type TOpenedDatabase } from '@rpc/db';
import { loadChains, startLocalnet, withUpstreams, type TLocalnet } from '@rpc/gateway';
import { parseEnv, type TEnv } from './env';
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
let gateway: TDbGateway | undefined;
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
  if (runsGateway)
    gateway = await startDbGateway({
      deps: consoleServer.deps,
      port: env.GATEWAY_PORT,
      host: env.HOST,
      trustProxy: env.TRUST_PROXY,
      // Scale mode: one RU pool per account across every gateway process (leases in Redis).
      ...(env.REDIS_URL ? { redis: { url: env.REDIS_URL } } : {}),
      // One journal directory per gateway process (per port on a host): usage survives kill -9.
      usageJournalDir: path.resolve(env.DATA_DIR, 'usage-journal', `gateway-${env.GATEWAY_PORT}`),
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

// Only once the signal handlers are in place: a supervisor may send SIGTERM as soon as it reads these lines.
// Exactly these two lines on stdout tell a user (and the e2e suite) where things are.
process.stdout.write(
  `${runsConsole ? `Console: ${consoleUrl}\n` : ''}${gateway ? `Gateway: ${gateway.url}\n` : ''}`,
);
