/**
 * The product as a bench runs it: `apps/server/src/main.ts` (what `npm start` runs) in a child process with the
 * given environment, started and stopped the way an operator would. Shared by bench:durability and
 * bench:gateway-product.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './bench-doc';

export type TProduct = {
  child: ChildProcess;
  consoleUrl?: string;
  gatewayUrl: string;
  startedMs: number;
};

/**
 * `npm start` as a user runs it, with the given environment (and Node flags, e.g. --cpu-prof); resolves once it
 * prints where it listens.
 */
export function startProduct(
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<TProduct> {
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', path.join(ROOT, 'apps/server/src/main.ts')],
    {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const gateway = /Gateway: (\S+)/.exec(out);
      const needsConsole = env.ROLE !== 'gateway';
      const consoleUrl = /Console: (\S+)/.exec(out);
      if (gateway && (!needsConsole || consoleUrl))
        resolve({
          child,
          gatewayUrl: gateway[1]!,
          consoleUrl: consoleUrl?.[1],
          startedMs: performance.now() - t0,
        });
    });
    child.once('exit', (code) => reject(new Error(`the product exited with ${code}:\n${out}`)));
  });
}

/** Resolves with how the process ended: its exit code, or the signal that ended it. */
export function stopProduct(p: TProduct, signal: 'SIGTERM' | 'SIGKILL'): Promise<number | string> {
  return new Promise((resolve) => {
    if (p.child.exitCode !== null || p.child.signalCode !== null)
      return resolve(p.child.exitCode ?? p.child.signalCode ?? 'gone');
    p.child.removeAllListeners('exit');
    p.child.once('exit', (code, sig) => resolve(code ?? sig ?? 'gone'));
    p.child.kill(signal);
  });
}
