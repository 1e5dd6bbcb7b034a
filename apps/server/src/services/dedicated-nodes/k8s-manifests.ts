/**
 * The Kubernetes objects of one dedicated node, rendered as plain data with @kubernetes/client-node's model types:
 * a StatefulSet (one pod, or none while stopped), a ClusterIP Service for JSON-RPC over HTTP (8545) and WebSocket
 * (8546), and a PersistentVolumeClaim for the chain data. Pure: the driver (k8s-driver.ts) applies them.
 *
 * Why a separate PVC rather than a volumeClaimTemplate: a StatefulSet's volumeClaimTemplates cannot be changed once
 * created, so a later change of size or class in the settings would make every re-apply of an existing node fail;
 * a claim of our own is created once, under a name we choose, outlives any StatefulSet (a stop, a re-create, a
 * deleted StatefulSet) and is deleted only by destroy, by that name. A StatefulSet rather than a Deployment still:
 * it never runs two pods of one node at once (a Deployment's rolling update would, over one ReadWriteOnce volume).
 *
 * Only the node's id, chain, node type and region reach the objects: never its account or anything about a person.
 */
import type {
  V1Container,
  V1PersistentVolumeClaim,
  V1Probe,
  V1Service,
  V1StatefulSet,
} from '@kubernetes/client-node';
import type { TDnNodeSpec } from './driver';
import type { TDnK8sImage, TDnK8sReadiness, TDnK8sSettings } from './k8s-settings';

/** Service ports: what the gateway calls, whatever the container listens on. */
export const DN_HTTP_PORT = 8545;
export const DN_WS_PORT = 8546;

export const DN_MANAGED_BY = 'rpc-console';
export const DN_LABEL_NODE_ID = 'rpc-console/node-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `dn-` and the node id's 32 hex digits: a DNS-1035 label of 35 characters. All of the uuid rather than a prefix,
 * because two nodes with one name would share one volume (another account's data); 35 also leaves room for what the
 * StatefulSet controller appends (`-0` for the pod, `-<hash>` in the controller-revision-hash label, ≤ 63).
 */
export function dnK8sName(nodeId: string): string {
  if (!UUID.test(nodeId)) throw new Error(`dedicated node id is not a uuid: ${nodeId}`);
  return `dn-${nodeId.replace(/-/g, '').toLowerCase()}`;
}

export function dnPvcName(name: string): string {
  return `${name}-data`;
}

/** What runs `chain` as `nodeType`, or null when the settings have nothing for it. */
export function dnImageFor(
  settings: TDnK8sSettings,
  chain: string,
  nodeType: TDnNodeSpec['nodeType'],
): TDnK8sImage | null {
  return settings.chains[chain]?.[nodeType] ?? null;
}

export type TDnK8sObjects = {
  statefulSet: V1StatefulSet;
  service: V1Service;
  pvc: V1PersistentVolumeClaim;
};

export type TDnRenderOptions = {
  /** false renders the stopped node: no pod, the claim kept */
  running: boolean;
  /** where and under which name (a previous ref's), when not the settings' namespace and the id's name */
  namespace?: string;
  name?: string;
};

export function renderDnNode(
  node: TDnNodeSpec,
  settings: TDnK8sSettings,
  o: TDnRenderOptions,
): TDnK8sObjects {
  const image = dnImageFor(settings, node.chain, node.nodeType);
  if (!image) throw new Error(`no image for ${node.chain} ${node.nodeType} in the settings`);
  const defaults = settings.nodeTypes[node.nodeType];
  const namespace = o.namespace ?? settings.namespace;
  const name = o.name ?? dnK8sName(node.id);
  const pvcName = dnPvcName(name);

  // The selector never changes once a StatefulSet exists: only the two labels that name the node go in it.
  const selector = {
    'app.kubernetes.io/name': 'dedicated-node',
    'app.kubernetes.io/instance': name,
  };
  const labels: Record<string, string> = {
    ...settings.labels,
    ...selector,
    'app.kubernetes.io/component': 'blockchain-node',
    'app.kubernetes.io/managed-by': DN_MANAGED_BY,
    [DN_LABEL_NODE_ID]: node.id.toLowerCase(),
    'rpc-console/chain': node.chain,
    'rpc-console/node-type': node.nodeType,
    'rpc-console/region': node.region,
  };
  const metadata = { name, namespace, labels };

  const pvc: V1PersistentVolumeClaim = {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: pvcName, namespace, labels },
    spec: {
      accessModes: ['ReadWriteOnce'],
      ...(defaults.storageClassName ? { storageClassName: defaults.storageClassName } : {}),
      resources: { requests: { storage: image.storageSize ?? defaults.storageSize } },
    },
  };

  const service: V1Service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata,
    spec: {
      type: 'ClusterIP',
      selector,
      ports: [
        { name: 'http', protocol: 'TCP', port: DN_HTTP_PORT, targetPort: image.httpPort },
        { name: 'ws', protocol: 'TCP', port: DN_WS_PORT, targetPort: image.wsPort },
      ],
    },
  };

  const container: V1Container = {
    name: 'node',
    image: image.image,
    imagePullPolicy: 'IfNotPresent',
    command: image.command,
    args: image.args,
    // HOME on the writable /tmp: the root filesystem is read-only and tools write caches under $HOME.
    env: [{ name: 'HOME', value: '/tmp' }],
    ports: [
      { name: 'http', containerPort: image.httpPort, protocol: 'TCP' },
      ...(image.wsPort === image.httpPort
        ? []
        : [{ name: 'ws', containerPort: image.wsPort, protocol: 'TCP' }]),
    ],
    readinessProbe: readinessProbe(image.readiness, image.httpPort),
    resources: image.resources ?? defaults.resources,
    securityContext: {
      runAsNonRoot: true,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: image.readOnlyRootFilesystem,
      capabilities: { drop: ['ALL'] },
    },
    volumeMounts: [
      { name: 'data', mountPath: image.dataPath },
      { name: 'tmp', mountPath: '/tmp' },
    ],
  };

  const statefulSet: V1StatefulSet = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata,
    spec: {
      replicas: o.running ? 1 : 0,
      serviceName: name,
      selector: { matchLabels: selector },
      // Our claim is not the StatefulSet's: nothing the controller does may delete it (destroy does, by name).
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      template: {
        metadata: { labels },
        spec: {
          // The node never talks to the Kubernetes API, and service links would only add env vars.
          automountServiceAccountToken: false,
          enableServiceLinks: false,
          terminationGracePeriodSeconds: image.terminationGracePeriodSeconds,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: image.runAsUser,
            runAsGroup: image.runAsUser,
            // The volume belongs to the node's group, so a non-root node can write it.
            fsGroup: image.runAsUser,
            fsGroupChangePolicy: 'OnRootMismatch',
            seccompProfile: { type: 'RuntimeDefault' },
          },
          containers: [container],
          volumes: [
            { name: 'data', persistentVolumeClaim: { claimName: pvcName } },
            { name: 'tmp', emptyDir: { sizeLimit: '1Gi' } },
          ],
        },
      },
    },
  };

  return { statefulSet, service, pvc };
}

/**
 * Ready = serving JSON-RPC: the lifecycle still checks eth_chainId itself before calling a node online, this only
 * keeps the Service from routing to a node that does not answer yet. No liveness probe: a node catching up with its
 * chain answers slowly, and a restart would only make it slower; a crashed node exits and is restarted anyway.
 */
function readinessProbe(readiness: TDnK8sReadiness, httpPort: number): V1Probe {
  const timing = { periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 3, successThreshold: 1 };
  if (readiness.type === 'exec') return { exec: { command: readiness.command }, ...timing };
  return { httpGet: { path: readiness.path, port: httpPort }, ...timing };
}
