/** `npm start`: the console API and the gateway in one process (embedded default), with graceful shutdown. */
import { startGateway } from '@rpc/gateway';
import { parseEnv, type TEnv } from './env';
import { createServer } from './server';

let env: TEnv;
try {
  env = parseEnv();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}

let consoleServer: Awaited<ReturnType<typeof createServer>>;
let consoleUrl: string;
let gateway: Awaited<ReturnType<typeof startGateway>>;
try {
  consoleServer = await createServer({ env });
  consoleUrl = await consoleServer.start();
  gateway = await startGateway({ port: env.GATEWAY_PORT, host: env.HOST });
} catch (err) {
  // One clear line (e.g. "listen EADDRINUSE: address already in use 0.0.0.0:3000") rather than a stack.
  console.error(`Failed to start: ${(err as Error).message}`);
  process.exit(1);
}

// Exactly these two lines on stdout tell a user (and the e2e suite) where things are.
process.stdout.write(`Console: ${consoleUrl}\nGateway: ${gateway.url}\n`);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) {
    // A second signal means "now".
    process.exit(1);
  }
  stopping = true;
  consoleServer.deps.logger.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await gateway.stop();
    await consoleServer.stop();
    process.exit(0);
  } catch (err) {
    consoleServer.deps.logger.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
