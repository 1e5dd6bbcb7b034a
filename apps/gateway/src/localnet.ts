/** startLocalnet: a Hardhat 2 node as a child process (HTTP and WS on one port) for the `localnet` chain. */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type TLocalnet = { url: string; wsUrl: string; stop: () => Promise<void> };

const gatewayDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function answersChainId(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      signal: AbortSignal.timeout(1000),
    });
    const json = (await res.json()) as { result?: string };
    return json.result === '0x7a69';
  } catch {
    return false;
  }
}

/** Starts `hardhat node` on 127.0.0.1:`port` and resolves once it answers eth_chainId (31337). */
export async function startLocalnet(opts: {
  port: number;
  timeoutMs?: number;
}): Promise<TLocalnet> {
  const require = createRequire(import.meta.url);
  const cli = path.join(
    path.dirname(require.resolve('hardhat/package.json')),
    'internal',
    'cli',
    'cli.js',
  );
  const url = `http://127.0.0.1:${opts.port}`;
  if (await answersChainId(url))
    throw new Error(`port ${opts.port} already serves a chain; pick another`);
  const child = spawn(
    process.execPath,
    [cli, 'node', '--hostname', '127.0.0.1', '--port', String(opts.port)],
    {
      cwd: gatewayDir,
      env: {
        ...process.env,
        HARDHAT_CONFIG: path.join(gatewayDir, 'hardhat.config.cjs'),
        HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true',
        CI: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  // Our own node's "started" line, not just an answer on the port: when two copies race for one port, the
  // loser's node exits while the winner's answers eth_chainId, and the loser must not take it for its own.
  let listening = false;
  const keep = (b: Buffer) => {
    output = (output + b.toString()).slice(-4000);
    if (!listening && output.includes('Started HTTP and WebSocket JSON-RPC server'))
      listening = true;
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = false;
  child.on('exit', () => (exited = true));

  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  while (!(listening && !exited && (await answersChainId(url)))) {
    if (exited || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`hardhat node did not start on ${url}:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (exited) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), 3000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });
  return { url, wsUrl: `ws://127.0.0.1:${opts.port}`, stop };
}
