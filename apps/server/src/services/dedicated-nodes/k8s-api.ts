/**
 * The four calls the Kubernetes driver makes, behind a type of our own so its logic is tested without a cluster;
 * createK8sApi implements them with @kubernetes/client-node's KubernetesObjectApi.
 */
import {
  ApiException,
  KubernetesObjectApi,
  PatchStrategy,
  type KubeConfig,
  type KubernetesObject,
} from '@kubernetes/client-node';

/** The field manager of our server-side applies: the fields we set are ours, and we take them back (force). */
export const DN_FIELD_MANAGER = 'rpc-console';

export type TK8sObjectKey = { apiVersion: string; kind: string; namespace: string; name: string };

export type TK8sApi = {
  /** server-side apply: creates or updates to exactly these fields; idempotent */
  apply: (object: KubernetesObject) => Promise<void>;
  /** the object, or null when there is none */
  read: <T extends KubernetesObject>(key: TK8sObjectKey) => Promise<T | null>;
  /** sets a StatefulSet's replicas; false when there is no such StatefulSet */
  scale: (key: TK8sObjectKey, replicas: number) => Promise<boolean>;
  /** deletes the object; one already gone counts as deleted */
  remove: (key: TK8sObjectKey) => Promise<void>;
};

const isNotFound = (err: unknown) => err instanceof ApiException && err.code === 404;

/** An operator-readable failure (kept in dedicated_nodes.last_error): the verb, the object and the API's reason. */
function failure(verb: string, key: TK8sObjectKey, err: unknown): Error {
  const where = `${key.kind} ${key.namespace}/${key.name}`;
  if (err instanceof ApiException) {
    return new Error(`kubernetes ${verb} ${where}: HTTP ${err.code}: ${reasonOf(err.body)}`, {
      cause: err,
    });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new Error(`kubernetes ${verb} ${where}: ${message}`, { cause: err });
}

/** The message of the API's Status answer; the client hands its body over as text. */
function reasonOf(body: unknown): string {
  let status = body;
  if (typeof body === 'string') {
    try {
      status = JSON.parse(body);
    } catch {
      return body.slice(0, 200) || 'no reason given';
    }
  }
  if (typeof status === 'object' && status && 'message' in status) return String(status.message);
  return 'no reason given';
}

function keyOf(object: KubernetesObject): TK8sObjectKey {
  return {
    apiVersion: object.apiVersion ?? 'v1',
    kind: object.kind ?? '?',
    namespace: object.metadata?.namespace ?? '',
    name: object.metadata?.name ?? '',
  };
}

export function createK8sApi(kc: KubeConfig, fieldManager = DN_FIELD_MANAGER): TK8sApi {
  const api = KubernetesObjectApi.makeApiClient(kc);
  const header = (key: TK8sObjectKey) => ({
    apiVersion: key.apiVersion,
    kind: key.kind,
    metadata: { name: key.name, namespace: key.namespace },
  });
  return {
    apply: async (object) => {
      try {
        await api.patch(
          object,
          undefined,
          undefined,
          fieldManager,
          true,
          PatchStrategy.ServerSideApply,
        );
      } catch (err) {
        throw failure('apply', keyOf(object), err);
      }
    },
    read: async <T extends KubernetesObject>(key: TK8sObjectKey) => {
      try {
        return await api.read<T>(header(key));
      } catch (err) {
        if (isNotFound(err)) return null;
        throw failure('read', key, err);
      }
    },
    // A merge patch of spec.replicas only, not an apply: an apply of a partial object would drop every other field
    // our manager owns. The next provision's apply takes replicas back (force).
    scale: async (key, replicas) => {
      try {
        await api.patch(
          { ...header(key), spec: { replicas } },
          undefined,
          undefined,
          fieldManager,
          undefined,
          PatchStrategy.MergePatch,
        );
        return true;
      } catch (err) {
        if (isNotFound(err)) return false;
        throw failure('scale', key, err);
      }
    },
    remove: async (key) => {
      try {
        await api.delete(header(key), undefined, undefined, undefined, undefined, 'Background');
      } catch (err) {
        if (isNotFound(err)) return;
        throw failure('delete', key, err);
      }
    },
  };
}
