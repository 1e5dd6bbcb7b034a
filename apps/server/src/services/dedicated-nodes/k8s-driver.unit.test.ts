/**
 * The Kubernetes driver through the real @kubernetes/client-node client, against a small HTTP server on 127.0.0.1
 * that answers the API paths the driver uses (discovery, get, server-side apply, merge patch, delete) the way the
 * API server does, and plays the StatefulSet controller when a test says a pod is ready.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseEnv } from '../../env';
import type { TDnDriver, TDnNodeSpec } from './driver';
import { createDnDriver, loadClusterConfig } from './dn-driver-config';
import { createK8sApi } from './k8s-api';
import { createK8sDnDriver } from './k8s-driver';
import { renderDnNode } from './k8s-manifests';
import { loadDnK8sSettings } from './k8s-settings';

const logger = pino({ level: 'silent' });
const SETTINGS = loadDnK8sSettings('dn-test');
const NODE: TDnNodeSpec = {
  id: '0b9d6a52-4c1e-4f3a-9e87-5d2c1b0a9f8e',
  chain: 'localnet',
  nodeType: 'full',
  region: 'local',
};
const SERVICE_ACCOUNT_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';
const NAME = 'dn-0b9d6a524c1e4f3a9e875d2c1b0a9f8e';
const STS = `/apis/apps/v1/namespaces/dn-test/statefulsets/${NAME}`;
const SVC = `/api/v1/namespaces/dn-test/services/${NAME}`;
const PVC = `/api/v1/namespaces/dn-test/persistentvolumeclaims/${NAME}-data`;

type TObject = {
  apiVersion: string;
  kind: string;
  metadata: Record<string, unknown>;
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
};
type TCall = {
  method: string;
  path: string;
  query: Record<string, string>;
  contentType: string | undefined;
  authorization: string | undefined;
  body: unknown;
};

const DISCOVERY: Record<string, { kind: string; name: string }[]> = {
  '/api/v1': [
    { kind: 'Service', name: 'services' },
    { kind: 'PersistentVolumeClaim', name: 'persistentvolumeclaims' },
  ],
  '/apis/apps/v1': [{ kind: 'StatefulSet', name: 'statefulsets' }],
};
const OBJECT_PATH = /^\/(api\/v1|apis\/apps\/v1)\/namespaces\/[^/]+\/([^/]+)\/[^/]+$/;

/** A tiny stand-in of the Kubernetes API server: objects by path, the calls made, failures on demand. */
class FakeApiServer {
  readonly objects = new Map<string, TObject>();
  readonly calls: TCall[] = [];
  private failures: { method: string; path: string; code: number; message: string }[] = [];
  private server: Server | null = null;
  private uid = 0;
  url = '';

  async start() {
    this.server = createServer((req, res) => {
      void this.answer(req).then(({ code, body }) => {
        res.writeHead(code, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop() {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  reset() {
    this.objects.clear();
    this.calls.length = 0;
    this.failures = [];
  }

  failNext(method: string, path: string, code: number, message: string) {
    this.failures.push({ method, path, code, message });
  }

  /** The StatefulSet controller's part: its pods are ready (or not). */
  setReady(path: string, readyReplicas: number) {
    const sts = this.objects.get(path)!;
    sts.status = { replicas: readyReplicas, readyReplicas };
  }

  /** Calls other than discovery, as `METHOD path`. */
  verbs() {
    return this.calls
      .filter((c) => !(c.path in DISCOVERY))
      .map((c) => `${c.method} ${c.path}${c.method === 'PATCH' ? ` ${c.contentType}` : ''}`);
  }

  private async answer(req: IncomingMessage): Promise<{ code: number; body: unknown }> {
    const url = new URL(req.url!, 'http://fake');
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    const call: TCall = {
      method: req.method!,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      contentType: req.headers['content-type'],
      authorization: req.headers.authorization,
      body: raw ? JSON.parse(raw) : undefined,
    };
    this.calls.push(call);
    const failure = this.failures.findIndex(
      (f) => f.method === call.method && f.path === call.path,
    );
    if (failure >= 0) {
      const [f] = this.failures.splice(failure, 1);
      return status(f!.code, f!.message);
    }
    const discovery = DISCOVERY[call.path];
    if (discovery && call.method === 'GET') {
      return {
        code: 200,
        body: {
          kind: 'APIResourceList',
          apiVersion: 'v1',
          groupVersion: call.path.replace(/^\/apis?\//, ''),
          resources: discovery.map((r) => ({
            ...r,
            singularName: r.name.replace(/s$/, ''),
            namespaced: true,
            verbs: ['get', 'patch', 'delete'],
          })),
        },
      };
    }
    if (!OBJECT_PATH.test(call.path)) return status(404, `no route ${call.path}`);
    const existing = this.objects.get(call.path);
    const notFound = () => status(404, `${call.path.split('/').at(-1)} not found`);
    switch (call.method) {
      case 'GET':
        return existing ? { code: 200, body: existing } : notFound();
      case 'DELETE':
        if (!existing) return notFound();
        this.objects.delete(call.path);
        return status(200, 'deleted');
      case 'PATCH': {
        const body = call.body as TObject;
        if (call.contentType === 'application/apply-patch+yaml') {
          // Server-side apply by one manager: the object becomes what was applied; status and uid stay.
          this.uid += 1;
          const metadata = { ...body.metadata, uid: existing?.metadata.uid ?? `uid-${this.uid}` };
          const applied: TObject = {
            ...body,
            metadata,
            ...(existing?.status ? { status: existing.status } : {}),
          };
          this.objects.set(call.path, applied);
          return { code: existing ? 200 : 201, body: applied };
        }
        if (call.contentType === 'application/merge-patch+json') {
          if (!existing) return notFound();
          const merged = mergePatch(existing, body) as TObject;
          this.objects.set(call.path, merged);
          return { code: 200, body: merged };
        }
        return status(415, `unsupported patch type ${call.contentType}`);
      }
    }
    return status(405, 'method not allowed');
  }
}

function status(code: number, message: string) {
  return {
    code,
    body: {
      kind: 'Status',
      apiVersion: 'v1',
      status: code < 300 ? 'Success' : 'Failure',
      message,
      code,
    },
  };
}

/** RFC 7386. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

const fake = new FakeApiServer();
let tmp = '';

function kubeconfigYaml(server: string) {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: fake\n  cluster:\n    server: ${server}\n    insecure-skip-tls-verify: true`,
    'users:',
    '- name: tester\n  user:\n    token: test-token',
    'contexts:',
    '- name: fake\n  context:\n    cluster: fake\n    user: tester',
    'current-context: fake',
    '',
  ].join('\n');
}

function driverOnFake(upstreamUrl?: string): TDnDriver {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfigYaml(fake.url));
  return createK8sDnDriver({
    settings: SETTINGS,
    client: createK8sApi(kc),
    logger,
    ...(upstreamUrl ? { upstreamUrl } : {}),
  });
}

beforeAll(async () => {
  await fake.start();
  tmp = mkdtempSync(path.join(tmpdir(), 'dn-k8s-'));
});
afterAll(async () => {
  await fake.stop();
  rmSync(tmp, { recursive: true, force: true });
});
beforeEach(() => fake.reset());
afterEach(() => vi.unstubAllEnvs());

describe('the kubernetes driver', () => {
  it('runs the chains its settings have an image for', () => {
    const driver = driverOnFake();
    expect(driver.name).toBe('kubernetes');
    expect(driver.canProvision('localnet')).toBe(true);
    expect(driver.canProvision('ethereum')).toBe(true);
    expect(driver.canProvision('bsc')).toBe(false);
    expect(driver.canProvision('polygon')).toBe(false);
  });

  it('provisions by applying the claim, the Service and the StatefulSet server-side, as rendered', async () => {
    const driver = driverOnFake();
    const ref = await driver.provision(NODE, null);
    expect(ref).toEqual({ namespace: 'dn-test', name: NAME });
    expect(fake.verbs()).toEqual([
      `GET ${PVC}`,
      `PATCH ${PVC} application/apply-patch+yaml`,
      `PATCH ${SVC} application/apply-patch+yaml`,
      `PATCH ${STS} application/apply-patch+yaml`,
    ]);
    for (const call of fake.calls.filter((c) => c.method === 'PATCH')) {
      expect(call.query).toEqual({ fieldManager: 'rpc-console', force: 'true' });
    }
    expect(fake.calls.every((c) => c.authorization === 'Bearer test-token')).toBe(true);
    // What reached the API is exactly what was rendered: the client dropped no field.
    const rendered = renderDnNode(NODE, SETTINGS, { running: true });
    const plain = (o: object): unknown => JSON.parse(JSON.stringify(o));
    const sent = (p: string) => fake.calls.find((c) => c.method === 'PATCH' && c.path === p)!.body;
    expect(sent(STS)).toEqual(plain(rendered.statefulSet));
    expect(sent(SVC)).toEqual(plain(rendered.service));
    expect(sent(PVC)).toEqual(plain(rendered.pvc));
  });

  it('is starting until the pod is ready, then running', async () => {
    const driver = driverOnFake();
    const ref = await driver.provision(NODE, null);
    expect(await driver.status(ref)).toBe('starting');
    fake.setReady(STS, 0);
    expect(await driver.status(ref)).toBe('starting');
    fake.setReady(STS, 1);
    expect(await driver.status(ref)).toBe('running');
  });

  it('stops by scaling to zero, keeping the claim and the Service', async () => {
    const driver = driverOnFake();
    const ref = await driver.provision(NODE, null);
    fake.setReady(STS, 1);
    const pvcBefore = structuredClone(fake.objects.get(PVC));
    fake.calls.length = 0;
    await driver.stop(ref);
    expect(fake.verbs()).toEqual([`PATCH ${STS} application/merge-patch+json`]);
    expect(fake.calls.at(-1)!.body).toMatchObject({ spec: { replicas: 0 } });
    expect(fake.objects.get(STS)!.spec!.replicas).toBe(0);
    expect(await driver.status(ref)).toBe('stopped');
    expect(fake.objects.get(PVC)).toEqual(pvcBefore);
    expect(fake.objects.has(SVC)).toBe(true);
    // the rest of the StatefulSet is untouched
    expect(fake.objects.get(STS)!.spec!.template).toEqual(
      JSON.parse(
        JSON.stringify(renderDnNode(NODE, SETTINGS, { running: true }).statefulSet.spec!.template),
      ),
    );
  });

  it('provisions again over the same claim with the previous ref: same names, claim not re-applied', async () => {
    const driver = driverOnFake();
    const first = await driver.provision(NODE, null);
    await driver.stop(first);
    const uid = fake.objects.get(PVC)!.metadata.uid;
    fake.calls.length = 0;
    const again = await driver.provision(NODE, first);
    expect(again).toEqual(first);
    expect(fake.verbs()).toEqual([
      `GET ${PVC}`,
      `PATCH ${SVC} application/apply-patch+yaml`,
      `PATCH ${STS} application/apply-patch+yaml`,
    ]);
    expect(fake.objects.get(PVC)!.metadata.uid).toBe(uid);
    expect(fake.objects.get(STS)!.spec!.replicas).toBe(1);
    expect(await driver.status(again)).toBe('starting');
  });

  it("keeps a previous ref's namespace and name when the settings' namespace changed since", async () => {
    const driver = driverOnFake();
    const ref = await driver.provision(NODE, { namespace: 'old-ns', name: 'dn-old' });
    expect(ref).toEqual({ namespace: 'old-ns', name: 'dn-old' });
    expect([...fake.objects.keys()].sort()).toEqual([
      '/api/v1/namespaces/old-ns/persistentvolumeclaims/dn-old-data',
      '/api/v1/namespaces/old-ns/services/dn-old',
      '/apis/apps/v1/namespaces/old-ns/statefulsets/dn-old',
    ]);
  });

  it('destroys the StatefulSet, the Service and the claim, and again without complaint', async () => {
    const driver = driverOnFake();
    const ref = await driver.provision(NODE, null);
    fake.calls.length = 0;
    await driver.destroy(ref);
    expect(fake.verbs()).toEqual([`DELETE ${STS}`, `DELETE ${SVC}`, `DELETE ${PVC}`]);
    expect(fake.objects.size).toBe(0);
    expect(fake.calls.find((c) => c.method === 'DELETE')!.query).toEqual({
      propagationPolicy: 'Background',
    });
    // every object now answers 404: done, not failed
    await expect(driver.destroy(ref)).resolves.toBeUndefined();
    await expect(driver.stop(ref)).resolves.toBeUndefined();
    expect(await driver.status(ref)).toBe('stopped');
  });

  it('finishes a destroy that failed half-way when retried', async () => {
    const driver = driverOnFake();
    const ref = await driver.provision(NODE, null);
    fake.failNext('DELETE', SVC, 500, 'etcd timeout');
    await expect(driver.destroy(ref)).rejects.toThrow(
      `kubernetes delete Service dn-test/${NAME}: HTTP 500: etcd timeout`,
    );
    expect(fake.objects.has(PVC)).toBe(true);
    await driver.destroy(ref);
    expect(fake.objects.size).toBe(0);
  });

  it('says which object the API refused and why', async () => {
    const driver = driverOnFake();
    fake.failNext('PATCH', STS, 403, 'statefulsets.apps is forbidden: no RBAC');
    await expect(driver.provision(NODE, null)).rejects.toThrow(
      `kubernetes apply StatefulSet dn-test/${NAME}: HTTP 403: statefulsets.apps is forbidden: no RBAC`,
    );
    fake.failNext('GET', STS, 401, 'Unauthorized');
    await expect(driver.status({ namespace: 'dn-test', name: NAME })).rejects.toThrow(
      /kubernetes read StatefulSet .*HTTP 401: Unauthorized/,
    );
  });

  it('refuses a node type without an image before calling the API', async () => {
    const driver = driverOnFake();
    await expect(driver.provision({ ...NODE, chain: 'bsc' }, null)).rejects.toThrow(
      'the kubernetes settings have no image for bsc full',
    );
    expect(fake.calls).toEqual([]);
  });

  it('refuses a ref that is not its own rather than forgetting a volume', async () => {
    const driver = driverOnFake();
    await expect(driver.destroy({ port: 8545, instance: 'x' })).rejects.toThrow(
      /not a kubernetes driver ref/,
    );
    await expect(driver.status({ port: 8545, instance: 'x' })).rejects.toThrow(
      /not a kubernetes driver ref/,
    );
  });

  it('answers in-cluster upstream URLs, or those of DN_K8S_UPSTREAM_URL', () => {
    const ref = { namespace: 'dn-test', name: NAME };
    expect(driverOnFake().upstreamUrl(ref)).toEqual({
      http: `http://${NAME}.dn-test.svc.cluster.local:8545`,
      ws: `ws://${NAME}.dn-test.svc.cluster.local:8546`,
    });
    const proxied = driverOnFake(
      'https://k8s.example.com/api/v1/namespaces/{namespace}/services/{name}:{port}/proxy/',
    );
    expect(proxied.upstreamUrl(ref)).toEqual({
      http: `https://k8s.example.com/api/v1/namespaces/dn-test/services/${NAME}:8545/proxy/`,
      ws: `wss://k8s.example.com/api/v1/namespaces/dn-test/services/${NAME}:8546/proxy/`,
    });
  });
});

describe('createDnDriver', () => {
  const env = (over: Record<string, string> = {}) => parseEnv({ DN_DRIVER: 'kubernetes', ...over });
  const noCluster = () => {
    const home = mkdtempSync(path.join(tmp, 'home-'));
    vi.stubEnv('KUBECONFIG', '');
    vi.stubEnv('HOME', home);
  };

  it('is the local driver by default', async () => {
    const driver = createDnDriver(parseEnv({}), logger);
    expect(driver.name).toBe('local');
    await driver.close();
  });

  // Inside a pod the service account is a cluster: nothing to refuse there.
  it.skipIf(existsSync(SERVICE_ACCOUNT_TOKEN))(
    'refuses kubernetes without a cluster configured',
    () => {
      noCluster();
      expect(() => createDnDriver(env(), logger)).toThrow(
        /DN_DRIVER=kubernetes needs a cluster: set KUBECONFIG/,
      );
      expect(() => loadClusterConfig()).toThrow(/needs a cluster/);
    },
  );

  it('refuses a KUBECONFIG that cannot be read', () => {
    vi.stubEnv('KUBECONFIG', path.join(tmp, 'missing.yaml'));
    expect(() => createDnDriver(env(), logger)).toThrow(
      /cannot read the cluster configuration: .*ENOENT/,
    );
  });

  it('refuses a kubeconfig whose context names no cluster', () => {
    const file = path.join(tmp, 'no-cluster.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: Config\nclusters: []\ncurrent-context: none\n');
    vi.stubEnv('KUBECONFIG', file);
    expect(() => createDnDriver(env(), logger)).toThrow(
      /current context \(none\) names no cluster/,
    );
  });

  it('refuses invalid settings, naming the field, before looking for a cluster', () => {
    const file = path.join(tmp, 'bad-settings.json');
    writeFileSync(
      file,
      JSON.stringify({
        nodeTypes: {
          full: { storageClassName: null, storageSize: 'big', resources: {} },
          archive: { storageClassName: null, storageSize: '1Ti', resources: {} },
        },
        chains: {},
      }),
    );
    noCluster();
    expect(() => createDnDriver(env({ DN_K8S_SETTINGS: file }), logger)).toThrow(
      /dedicated-node Kubernetes settings .*bad-settings\.json:\n(.|\n)*nodeTypes\.full\.storageSize/,
    );
    expect(() =>
      createDnDriver(env({ DN_K8S_SETTINGS: path.join(tmp, 'none.json') }), logger),
    ).toThrow(/none\.json: ENOENT/);
    writeFileSync(file, '{ not json');
    expect(() => createDnDriver(env({ DN_K8S_SETTINGS: file }), logger)).toThrow(/JSON/);
  });

  it('runs kubernetes with KUBECONFIG and the namespace and upstream of the environment', async () => {
    const file = path.join(tmp, 'kubeconfig.yaml');
    writeFileSync(file, kubeconfigYaml(fake.url));
    vi.stubEnv('KUBECONFIG', file);
    const driver = createDnDriver(
      env({
        DN_K8S_NAMESPACE: 'nodes-a',
        DN_K8S_UPSTREAM_URL: 'http://{name}.{namespace}.example:{port}',
      }),
      logger,
    );
    expect(driver.name).toBe('kubernetes');
    const ref = await driver.provision(NODE, null);
    expect(ref).toEqual({ namespace: 'nodes-a', name: NAME });
    expect(fake.objects.has(`/apis/apps/v1/namespaces/nodes-a/statefulsets/${NAME}`)).toBe(true);
    expect(driver.upstreamUrl(ref).http).toBe(`http://${NAME}.nodes-a.example:8545`);
  });

  it.each([
    [{ DN_DRIVER: 'docker' }, 'DN_DRIVER'],
    [{ DN_K8S_NAMESPACE: 'Not_A_Namespace' }, 'DN_K8S_NAMESPACE'],
    [{ DN_K8S_UPSTREAM_URL: 'http://nodes.example:8545' }, 'DN_K8S_UPSTREAM_URL'],
    [{ DN_K8S_UPSTREAM_URL: 'tcp://{name}:{port}' }, 'DN_K8S_UPSTREAM_URL'],
  ])('the environment refuses %j', (bad, name) => {
    expect(() => parseEnv(bad)).toThrow(name);
  });

  it('the environment defaults to the local driver and the rpc-dedicated-nodes namespace', () => {
    const e = parseEnv({});
    expect(e.DN_DRIVER).toBe('local');
    expect(e.DN_K8S_NAMESPACE).toBe('rpc-dedicated-nodes');
    expect(e.DN_K8S_SETTINGS).toBeUndefined();
    expect(e.DN_K8S_UPSTREAM_URL).toBeUndefined();
  });
});
