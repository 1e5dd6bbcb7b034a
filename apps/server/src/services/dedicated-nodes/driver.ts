/**
 * What runs a dedicated node: the lifecycle (lifecycle.ts) asks a driver to start, watch, stop and delete nodes and
 * stores the driver's ref in dedicated_nodes.driver_ref. The local driver (local-driver.ts) runs a Hardhat process
 * per node; the Kubernetes driver (k8s-driver.ts: a StatefulSet, Service and volume claim per node) runs them in a cluster.
 */
import type { TDnDriverRef, TDnNodeType } from '@rpc/db';

export type TDnNodeSpec = { id: string; chain: string; nodeType: TDnNodeType; region: string };

/** starting: asked to run, not up yet · running: its process is up · stopped: nothing runs (gone, failed, stopped) */
export type TDnRunState = 'starting' | 'running' | 'stopped';

export type TDnUpstream = { http: string; ws: string };

export type TDnDriver = {
  /** stored in dedicated_nodes.driver */
  readonly name: string;
  /** whether this driver can run nodes of `chain` (the local driver: localnet only) */
  canProvision: (chain: string) => boolean;
  /**
   * Starts the node and answers its ref at once (it comes up in the background: see status). `previous` is the
   * node's last ref, when it had one: a driver that keeps data (a volume) starts over it, and whatever still runs
   * under it is stopped first.
   */
  provision: (node: TDnNodeSpec, previous: TDnDriverRef | null) => Promise<TDnDriverRef>;
  status: (ref: TDnDriverRef) => Promise<TDnRunState>;
  /** where the gateway forwards the node's calls */
  upstreamUrl: (ref: TDnDriverRef) => TDnUpstream;
  /** stops serving; the data stays (the grace period) */
  stop: (ref: TDnDriverRef) => Promise<void>;
  /** stops and deletes the data; idempotent */
  destroy: (ref: TDnDriverRef) => Promise<void>;
  /** ends whatever this process started (server stop) */
  close: () => Promise<void>;
};
