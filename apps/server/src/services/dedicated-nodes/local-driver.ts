/**
 * The local driver: one real Hardhat node process per dedicated node, started with the gateway's startLocalnet (the
 * same way `npm start` runs the localnet chain) on a port the OS picks, and kept in a map of this process.
 *
 * - Only `localnet` can run here (canProvision); other chains are shown in the catalogue but not sold.
 * - A console restart loses the map (and the children die with it): every ref then reads as stopped, and the next
 *   lifecycle sweep provisions the node again on a new port. Hardhat keeps its chain in memory, so a local node's
 *   state does not survive a stop or a restart; "data kept for the grace period" is a promise the Kubernetes
 *   driver's volume keeps, not this one.
 * - One console process owns the nodes it started: the local driver is for the embedded default, not scale mode.
 */
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { startLocalnet, type TLocalnet } from '@rpc/gateway';
import type { TDnDriverRef } from '@rpc/db';
import { z } from 'zod';
import type { TLogger } from '../../lib/logger';
import type { TDnDriver, TDnRunState } from './driver';

const ZLocalRefSchema = z.object({ port: z.number().int(), instance: z.string() });

type TInstance = {
  port: number;
  /** settles when the node answers (its TLocalnet) or failed to start (null) */
  started: Promise<TLocalnet | null>;
  localnet: TLocalnet | null;
  failed: boolean;
  stopping: boolean;
};

export type TLocalDnDriver = TDnDriver & {
  /** processes this driver runs now (tests check that stop and close leave none) */
  running: () => number;
};

export function createLocalDnDriver(o: {
  logger: TLogger;
  /** how long a node may take to answer before its start counts as failed */
  bootTimeoutMs?: number;
}): TLocalDnDriver {
  const instances = new Map<string, TInstance>();

  const parse = (ref: TDnDriverRef) => {
    const parsed = ZLocalRefSchema.safeParse(ref);
    return parsed.success ? parsed.data : null;
  };

  const stopInstance = async (id: string) => {
    const inst = instances.get(id);
    if (!inst) return;
    inst.stopping = true;
    instances.delete(id);
    // A node still booting is stopped as soon as it is up (the start resolves, then stops here).
    const localnet = inst.localnet ?? (await inst.started);
    await localnet?.stop();
  };

  return {
    name: 'local',
    canProvision: (chain) => chain === 'localnet',
    provision: async (node, previous) => {
      const before = previous ? parse(previous) : null;
      if (before) await stopInstance(before.instance);
      const port = await freePort();
      const id = randomUUID();
      const inst: TInstance = {
        port,
        started: Promise.resolve(null),
        localnet: null,
        failed: false,
        stopping: false,
      };
      inst.started = startLocalnet({ port, timeoutMs: o.bootTimeoutMs ?? 60_000 }).then(
        (localnet) => {
          inst.localnet = localnet;
          return localnet;
        },
        (err: unknown) => {
          inst.failed = true;
          o.logger.error({ err, nodeId: node.id, port }, 'dedicated node did not start');
          return null;
        },
      );
      instances.set(id, inst);
      return { port, instance: id };
    },
    status: async (ref): Promise<TDnRunState> => {
      const r = parse(ref);
      const inst = r ? instances.get(r.instance) : undefined;
      if (!inst || inst.failed || inst.stopping) return 'stopped';
      if (!inst.localnet) return 'starting';
      // Up once; still up if its port takes connections (a crashed process refuses them).
      return (await accepts(inst.port)) ? 'running' : 'stopped';
    },
    upstreamUrl: (ref) => {
      const r = parse(ref);
      const port = r?.port ?? 0;
      return { http: `http://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}` };
    },
    stop: async (ref) => {
      const r = parse(ref);
      if (r) await stopInstance(r.instance);
    },
    // Hardhat's chain lives in its process's memory: stopping it is deleting it.
    destroy: async (ref) => {
      const r = parse(ref);
      if (r) await stopInstance(r.instance);
    },
    close: async () => {
      await Promise.all([...instances.keys()].map(stopInstance));
    },
    running: () => [...instances.values()].filter((i) => i.localnet && !i.stopping).length,
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
