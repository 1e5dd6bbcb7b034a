/**
 * The Kubernetes driver: each dedicated node is a StatefulSet, a Service and a PersistentVolumeClaim in one namespace
 * (k8s-manifests.ts), applied server-side through TK8sApi (k8s-api.ts). Its ref is `{ namespace, name }`.
 *
 * - provision applies the claim (once: an existing one is left as it is), the Service and the StatefulSet at one
 *   replica; a previous ref's namespace and name are used again, so a renewed node finds its volume.
 * - stop scales the StatefulSet to zero: the pod goes, the claim and its data stay (the grace period).
 * - destroy deletes all three; what is already gone counts as deleted, so it can be retried.
 * - Nothing runs in this process: close has nothing to end, and a console restart loses nothing.
 */
import type { V1StatefulSet } from '@kubernetes/client-node';
import type { TDnDriverRef } from '@rpc/db';
import { z } from 'zod';
import type { TLogger } from '../../lib/logger';
import type { TDnDriver, TDnRunState } from './driver';
import type { TK8sApi, TK8sObjectKey } from './k8s-api';
import {
  DN_HTTP_PORT,
  DN_WS_PORT,
  dnImageFor,
  dnK8sName,
  dnPvcName,
  renderDnNode,
} from './k8s-manifests';
import type { TDnK8sSettings } from './k8s-settings';

/** Where the gateway reaches a node from inside the cluster; DN_K8S_UPSTREAM_URL replaces it. */
export const DEFAULT_DN_K8S_UPSTREAM_URL = 'http://{name}.{namespace}.svc.cluster.local:{port}';

const ZK8sRefSchema = z.object({ namespace: z.string().min(1), name: z.string().min(1) });
export type TK8sDnRef = z.infer<typeof ZK8sRefSchema>;

export function createK8sDnDriver(o: {
  settings: TDnK8sSettings;
  client: TK8sApi;
  logger: TLogger;
  /** a URL with {name}, {namespace} and {port}; WebSocket is the same URL with ws(s): */
  upstreamUrl?: string;
}): TDnDriver {
  const { settings, client } = o;
  const template = o.upstreamUrl ?? DEFAULT_DN_K8S_UPSTREAM_URL;

  // A ref this driver cannot read is a bug, not a stopped node: said loudly, so destroy never forgets a volume.
  const parse = (ref: TDnDriverRef): TK8sDnRef => {
    const parsed = ZK8sRefSchema.safeParse(ref);
    if (!parsed.success) throw new Error(`not a kubernetes driver ref: ${JSON.stringify(ref)}`);
    return parsed.data;
  };
  const keys = (ref: TK8sDnRef) => {
    const at = { namespace: ref.namespace };
    return {
      statefulSet: { apiVersion: 'apps/v1', kind: 'StatefulSet', ...at, name: ref.name },
      service: { apiVersion: 'v1', kind: 'Service', ...at, name: ref.name },
      pvc: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', ...at, name: dnPvcName(ref.name) },
    } satisfies Record<string, TK8sObjectKey>;
  };
  const url = (ref: TK8sDnRef, port: number) =>
    template
      .replaceAll('{name}', ref.name)
      .replaceAll('{namespace}', ref.namespace)
      .replaceAll('{port}', String(port));

  return {
    name: 'kubernetes',
    canProvision: (chain) => {
      const entry = settings.chains[chain];
      return Boolean(entry?.full ?? entry?.archive);
    },
    provision: async (node, previous) => {
      if (!dnImageFor(settings, node.chain, node.nodeType)) {
        throw new Error(`the kubernetes settings have no image for ${node.chain} ${node.nodeType}`);
      }
      const before = previous ? ZK8sRefSchema.safeParse(previous) : null;
      const ref: TK8sDnRef = before?.success
        ? before.data
        : { namespace: settings.namespace, name: dnK8sName(node.id) };
      const objects = renderDnNode(node, settings, { running: true, ...ref });
      const k = keys(ref);
      // Created once: a claim's class cannot change and its size only grows where the class allows, so a settings
      // change applies to new nodes; resizing kept volumes is the operator's call.
      if (!(await client.read(k.pvc))) await client.apply(objects.pvc);
      await client.apply(objects.service);
      await client.apply(objects.statefulSet);
      o.logger.info({ nodeId: node.id, ...ref }, 'dedicated node applied to the cluster');
      return ref;
    },
    status: async (ref): Promise<TDnRunState> => {
      const sts = await client.read<V1StatefulSet>(keys(parse(ref)).statefulSet);
      // Kubernetes defaults a missing replicas to 1.
      if (!sts || (sts.spec?.replicas ?? 1) === 0) return 'stopped';
      return (sts.status?.readyReplicas ?? 0) >= 1 ? 'running' : 'starting';
    },
    upstreamUrl: (ref) => {
      const r = parse(ref);
      return {
        http: url(r, DN_HTTP_PORT),
        ws: url(r, DN_WS_PORT).replace(/^http/, 'ws'),
      };
    },
    stop: async (ref) => {
      // No StatefulSet: nothing runs, which is what stop asks.
      await client.scale(keys(parse(ref)).statefulSet, 0);
    },
    destroy: async (ref) => {
      const k = keys(parse(ref));
      // The pod first (it holds the claim), then what serves it, then the data.
      await client.remove(k.statefulSet);
      await client.remove(k.service);
      await client.remove(k.pvc);
    },
    close: async () => {},
  };
}
