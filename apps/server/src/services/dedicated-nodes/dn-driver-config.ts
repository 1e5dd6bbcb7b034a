/**
 * Which driver runs this server's dedicated nodes (DN_DRIVER): the local one (a Hardhat process per node, the
 * default) or the Kubernetes one, which starts only with a cluster configured and valid settings, and otherwise
 * stops the server at start with the reason.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { TEnv } from '../../env';
import type { TLogger } from '../../lib/logger';
import type { TDnDriver } from './driver';
import { createK8sApi } from './k8s-api';
import { createK8sDnDriver } from './k8s-driver';
import { loadDnK8sSettings } from './k8s-settings';
import { createLocalDnDriver } from './local-driver';

export type TDnDriverEnv = Pick<
  TEnv,
  'DN_DRIVER' | 'DN_K8S_NAMESPACE' | 'DN_K8S_SETTINGS' | 'DN_K8S_UPSTREAM_URL'
>;

/** Where an in-cluster pod finds its service account's token (what KubeConfig.loadFromDefault looks for). */
const SERVICE_ACCOUNT_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';

export function createDnDriver(env: TDnDriverEnv, logger: TLogger): TDnDriver {
  if (env.DN_DRIVER === 'local') return createLocalDnDriver({ logger });
  const settings = loadDnK8sSettings(env.DN_K8S_NAMESPACE, env.DN_K8S_SETTINGS);
  const kc = loadClusterConfig();
  logger.info(
    {
      cluster: kc.getCurrentCluster()?.server,
      namespace: settings.namespace,
      chains: Object.keys(settings.chains),
    },
    'dedicated nodes run on Kubernetes',
  );
  return createK8sDnDriver({
    settings,
    client: createK8sApi(kc),
    logger,
    ...(env.DN_K8S_UPSTREAM_URL ? { upstreamUrl: env.DN_K8S_UPSTREAM_URL } : {}),
  });
}

/**
 * The cluster of KUBECONFIG, ~/.kube/config or the pod's service account, in KubeConfig.loadFromDefault's order.
 * Checked before loading because loadFromDefault, finding none, quietly points at http://localhost:8080.
 */
export function loadClusterConfig(): KubeConfig {
  const home = process.env.HOME;
  const hasSource =
    Boolean(process.env.KUBECONFIG) ||
    (home ? existsSync(path.join(home, '.kube', 'config')) : false) ||
    existsSync(SERVICE_ACCOUNT_TOKEN);
  if (!hasSource) {
    throw new Error(
      'DN_DRIVER=kubernetes needs a cluster: set KUBECONFIG to a kubeconfig file, put one at ' +
        `${path.join(home ?? os.homedir(), '.kube', 'config')}, or run the console in a pod with a service account`,
    );
  }
  const kc = new KubeConfig();
  try {
    kc.loadFromDefault();
  } catch (err) {
    throw new Error(
      `DN_DRIVER=kubernetes: cannot read the cluster configuration: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
  if (!kc.getCurrentCluster()) {
    throw new Error(
      `DN_DRIVER=kubernetes: the kubeconfig's current context (${kc.getCurrentContext() || 'none'}) names no cluster`,
    );
  }
  return kc;
}
