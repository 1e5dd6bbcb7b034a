import { randomUUID } from 'node:crypto';
import * as k8s from '@kubernetes/client-node';
// Not re-exported by the package's index: the serializer KubernetesObjectApi puts every body through.
import { ObjectSerializer } from '@kubernetes/client-node/dist/serializer.js';
import { describe, expect, it } from 'vitest';
import type { TDnNodeSpec } from './driver';
import { DN_LABEL_NODE_ID, dnK8sName, dnPvcName, renderDnNode } from './k8s-manifests';
import { checkDnK8sSettings, loadDnK8sSettings, type TDnK8sSettings } from './k8s-settings';

/** The shipped config/dn-k8s.json: what an operator gets by default must render valid objects. */
const SHIPPED = loadDnK8sSettings('rpc-dedicated-nodes');

const NODE: TDnNodeSpec = {
  id: '3f2b8c1e-9d4a-4e7b-8a6c-1b2d3e4f5a6b',
  chain: 'localnet',
  nodeType: 'full',
  region: 'local',
};

/** Small settings made in code, so each test shows the values it checks. */
const SETTINGS: TDnK8sSettings = checkDnK8sSettings(
  {
    labels: { 'app.kubernetes.io/part-of': 'rpc-console', team: 'infra', [DN_LABEL_NODE_ID]: 'x' },
    nodeTypes: {
      full: {
        storageClassName: null,
        storageSize: '100Gi',
        resources: { requests: { cpu: '1', memory: '2Gi' }, limits: { memory: '4Gi' } },
      },
      archive: {
        storageClassName: 'fast-ssd',
        storageSize: '3Ti',
        resources: {
          requests: { cpu: '4', memory: '16Gi' },
          limits: { cpu: '8', memory: '32Gi' },
        },
      },
    },
    chains: {
      localnet: {
        full: {
          image: 'ghcr.io/foundry-rs/foundry:v1.2.3',
          command: ['anvil'],
          args: ['--host', '0.0.0.0'],
          httpPort: 8545,
          wsPort: 8545,
          readiness: { type: 'exec', command: ['cast', 'chain-id'] },
          storageSize: '1Gi',
        },
      },
      ethereum: {
        full: {
          image: 'ethereum/client-go:v1.16.1',
          command: ['geth'],
          readiness: { type: 'httpGet', path: '/' },
        },
        archive: {
          image: 'ethereum/client-go:v1.16.1',
          command: ['geth'],
          args: ['--gcmode=archive'],
          readiness: { type: 'httpGet', path: '/' },
          runAsUser: 2000,
          readOnlyRootFilesystem: false,
          resources: { requests: { cpu: '2', memory: '8Gi' }, limits: { memory: '8Gi' } },
        },
      },
    },
  },
  'dn-test',
);

const render = (node: Partial<TDnNodeSpec> = {}, running = true) =>
  renderDnNode({ ...NODE, ...node }, SETTINGS, { running });

const podSpec = (objects: ReturnType<typeof render>) => objects.statefulSet.spec!.template.spec!;
const container = (objects: ReturnType<typeof render>) => podSpec(objects).containers[0]!;

type TAttribute = { name: string; type: string; format: string };
type TModel = { getAttributeTypeMap: () => TAttribute[] };

/**
 * Checks `value` against the client's generated model of `type` (the Kubernetes OpenAPI schema it was generated
 * from): every key must be a field of the model and every value of the field's type. Answers the problems found.
 */
function modelProblems(value: unknown, type: string, at = '$'): string[] {
  if (value === undefined) return [];
  const bad = (why: string) => [`${at}: ${why} (${type}), got ${JSON.stringify(value)}`];
  const array = /^Array<(.+)>$/.exec(type);
  if (array) {
    if (!Array.isArray(value)) return bad('not an array');
    return value.flatMap((v, i) => modelProblems(v, array[1]!, `${at}[${i}]`));
  }
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map) {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return bad('not a map');
    return Object.entries(value).flatMap(([k, v]) => modelProblems(v, map[1]!, `${at}.${k}`));
  }
  switch (type) {
    case 'string':
      return typeof value === 'string' ? [] : bad('not a string');
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? [] : bad('not a number');
    case 'boolean':
      return typeof value === 'boolean' ? [] : bad('not a boolean');
    case 'IntOrString':
      return typeof value === 'string' || Number.isInteger(value) ? [] : bad('not int-or-string');
  }
  const model = (k8s as unknown as Record<string, TModel | undefined>)[type];
  if (!model?.getAttributeTypeMap) return bad('unknown model type');
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return bad('not an object');
  const fields = new Map(model.getAttributeTypeMap().map((a) => [a.name, a]));
  return Object.entries(value).flatMap(([key, v]) => {
    const field = fields.get(key);
    if (!field) return [`${at}.${key}: not a field of ${type}`];
    const problems = modelProblems(v, field.type, `${at}.${key}`);
    if (problems.length === 0 && field.format === 'int32' && !Number.isInteger(v))
      return [`${at}.${key}: not an integer`];
    return problems;
  });
}

/** What KubernetesObjectApi sends for `object`: the serializer keeps only the fields the model knows. */
const onTheWire = (object: object, type: string): unknown =>
  JSON.parse(JSON.stringify(ObjectSerializer.serialize(object, type)));

describe('dnK8sName', () => {
  it('is a DNS-1035 label of at most 52 characters for any node id, one per id', () => {
    const names = new Set<string>();
    for (let i = 0; i < 2000; i += 1) {
      const id = randomUUID();
      const name = dnK8sName(id);
      // 52: the StatefulSet controller labels pods `<name>-<10-char hash>`, a label value of at most 63.
      expect(name.length).toBeLessThanOrEqual(52);
      expect(name).toMatch(/^[a-z]([-a-z0-9]*[a-z0-9])?$/);
      expect(dnPvcName(name).length).toBeLessThanOrEqual(63);
      expect(dnPvcName(name)).toMatch(/^[a-z]([-a-z0-9]*[a-z0-9])?$/);
      expect(dnK8sName(id.toUpperCase())).toBe(name);
      names.add(name);
    }
    expect(names.size).toBe(2000);
  });

  it('keeps every hex digit of the id, so ids differing only at the end get different names', () => {
    expect(dnK8sName('3f2b8c1e-9d4a-4e7b-8a6c-1b2d3e4f5a6b')).toBe(
      'dn-3f2b8c1e9d4a4e7b8a6c1b2d3e4f5a6b',
    );
    expect(dnK8sName('3f2b8c1e-9d4a-4e7b-8a6c-1b2d3e4f5a6c')).not.toBe(
      dnK8sName('3f2b8c1e-9d4a-4e7b-8a6c-1b2d3e4f5a6b'),
    );
  });

  it.each(['', 'not-a-uuid', '3f2b8c1e9d4a4e7b8a6c1b2d3e4f5a6b', '../../etc/passwd'])(
    'refuses %j',
    (id) => {
      expect(() => dnK8sName(id)).toThrow(/not a uuid/);
    },
  );
});

describe('renderDnNode', () => {
  it('names the three objects after the node, in the settings namespace', () => {
    const { statefulSet, service, pvc } = render();
    const name = 'dn-3f2b8c1e9d4a4e7b8a6c1b2d3e4f5a6b';
    expect([statefulSet.kind, service.kind, pvc.kind]).toEqual([
      'StatefulSet',
      'Service',
      'PersistentVolumeClaim',
    ]);
    expect([statefulSet.apiVersion, service.apiVersion, pvc.apiVersion]).toEqual([
      'apps/v1',
      'v1',
      'v1',
    ]);
    expect(statefulSet.metadata).toMatchObject({ name, namespace: 'dn-test' });
    expect(service.metadata).toMatchObject({ name, namespace: 'dn-test' });
    expect(pvc.metadata).toMatchObject({ name: `${name}-data`, namespace: 'dn-test' });
    expect(statefulSet.spec!.serviceName).toBe(name);
  });

  it('takes a previous namespace and name over the settings', () => {
    const { statefulSet, service, pvc } = renderDnNode(NODE, SETTINGS, {
      running: true,
      namespace: 'old-ns',
      name: 'dn-old',
    });
    expect(statefulSet.metadata).toMatchObject({ name: 'dn-old', namespace: 'old-ns' });
    expect(service.metadata).toMatchObject({ name: 'dn-old', namespace: 'old-ns' });
    expect(pvc.metadata).toMatchObject({ name: 'dn-old-data', namespace: 'old-ns' });
    expect(podSpec({ statefulSet, service, pvc }).volumes![0]!.persistentVolumeClaim).toEqual({
      claimName: 'dn-old-data',
    });
  });

  it('labels every object with the node and the settings labels, ours winning a clash', () => {
    const objects = render({ chain: 'ethereum', nodeType: 'archive', region: 'eu-central' });
    const expected = {
      'app.kubernetes.io/name': 'dedicated-node',
      'app.kubernetes.io/instance': 'dn-3f2b8c1e9d4a4e7b8a6c1b2d3e4f5a6b',
      'app.kubernetes.io/component': 'blockchain-node',
      'app.kubernetes.io/managed-by': 'rpc-console',
      'app.kubernetes.io/part-of': 'rpc-console',
      team: 'infra',
      'rpc-console/node-id': NODE.id,
      'rpc-console/chain': 'ethereum',
      'rpc-console/node-type': 'archive',
      'rpc-console/region': 'eu-central',
    };
    expect(objects.statefulSet.metadata!.labels).toEqual(expected);
    expect(objects.service.metadata!.labels).toEqual(expected);
    expect(objects.pvc.metadata!.labels).toEqual(expected);
    expect(objects.statefulSet.spec!.template.metadata!.labels).toEqual(expected);
  });

  it('selects pods by the two labels that never change, and the Service selects the same', () => {
    const objects = render();
    const selector = {
      'app.kubernetes.io/name': 'dedicated-node',
      'app.kubernetes.io/instance': 'dn-3f2b8c1e9d4a4e7b8a6c1b2d3e4f5a6b',
    };
    expect(objects.statefulSet.spec!.selector).toEqual({ matchLabels: selector });
    expect(objects.service.spec!.selector).toEqual(selector);
    expect(objects.statefulSet.spec!.template.metadata!.labels).toMatchObject(selector);
  });

  it('runs one replica, and none when stopped; stopping changes nothing else', () => {
    const running = render({}, true);
    const stopped = render({}, false);
    expect(running.statefulSet.spec!.replicas).toBe(1);
    expect(stopped.statefulSet.spec!.replicas).toBe(0);
    expect({
      ...stopped,
      statefulSet: { ...stopped.statefulSet, spec: { ...stopped.statefulSet.spec!, replicas: 1 } },
    }).toEqual(running);
  });

  it('keeps the claim whatever the StatefulSet controller does', () => {
    expect(render().statefulSet.spec!.persistentVolumeClaimRetentionPolicy).toEqual({
      whenDeleted: 'Retain',
      whenScaled: 'Retain',
    });
    expect(render().statefulSet.spec!.volumeClaimTemplates).toBeUndefined();
  });

  it('exposes JSON-RPC on 8545 and WebSocket on 8546 through a ClusterIP Service', () => {
    // geth: WebSocket on its own port
    const geth = render({ chain: 'ethereum' });
    expect(geth.service.spec!.type).toBe('ClusterIP');
    expect(geth.service.spec!.ports).toEqual([
      { name: 'http', protocol: 'TCP', port: 8545, targetPort: 8545 },
      { name: 'ws', protocol: 'TCP', port: 8546, targetPort: 8546 },
    ]);
    expect(container(geth).ports).toEqual([
      { name: 'http', containerPort: 8545, protocol: 'TCP' },
      { name: 'ws', containerPort: 8546, protocol: 'TCP' },
    ]);
    // anvil: WebSocket on its HTTP port, one container port, still 8546 on the Service
    const anvil = render();
    expect(anvil.service.spec!.ports).toEqual([
      { name: 'http', protocol: 'TCP', port: 8545, targetPort: 8545 },
      { name: 'ws', protocol: 'TCP', port: 8546, targetPort: 8545 },
    ]);
    expect(container(anvil).ports).toEqual([
      { name: 'http', containerPort: 8545, protocol: 'TCP' },
    ]);
  });

  it.each([
    // node type defaults, and an image's own size
    { chain: 'ethereum', nodeType: 'full', size: '100Gi', storageClassName: undefined },
    { chain: 'ethereum', nodeType: 'archive', size: '3Ti', storageClassName: 'fast-ssd' },
    { chain: 'localnet', nodeType: 'full', size: '1Gi', storageClassName: undefined },
  ] as const)(
    'claims $size of $storageClassName for $chain $nodeType',
    ({ chain, nodeType, size, storageClassName }) => {
      const objects = render({ chain, nodeType });
      expect(objects.pvc.spec).toEqual({
        accessModes: ['ReadWriteOnce'],
        ...(storageClassName ? { storageClassName } : {}),
        resources: { requests: { storage: size } },
      });
      expect(podSpec(objects).volumes).toEqual([
        { name: 'data', persistentVolumeClaim: { claimName: objects.pvc.metadata!.name } },
        { name: 'tmp', emptyDir: { sizeLimit: '1Gi' } },
      ]);
      expect(container(objects).volumeMounts).toEqual([
        { name: 'data', mountPath: '/data' },
        { name: 'tmp', mountPath: '/tmp' },
      ]);
    },
  );

  it('takes resources from the node type unless the image has its own', () => {
    expect(container(render({ chain: 'ethereum', nodeType: 'full' })).resources).toEqual({
      requests: { cpu: '1', memory: '2Gi' },
      limits: { memory: '4Gi' },
    });
    expect(container(render({ chain: 'ethereum', nodeType: 'archive' })).resources).toEqual({
      requests: { cpu: '2', memory: '8Gi' },
      limits: { memory: '8Gi' },
    });
  });

  it('runs the image with its command and arguments', () => {
    const c = container(render({ chain: 'ethereum', nodeType: 'archive' }));
    expect(c).toMatchObject({
      name: 'node',
      image: 'ethereum/client-go:v1.16.1',
      imagePullPolicy: 'IfNotPresent',
      command: ['geth'],
      args: ['--gcmode=archive'],
      env: [{ name: 'HOME', value: '/tmp' }],
    });
  });

  it('is ready once the node answers: exec for anvil, an HTTP GET for geth; no liveness probe', () => {
    const timing = {
      periodSeconds: 10,
      timeoutSeconds: 5,
      failureThreshold: 3,
      successThreshold: 1,
    };
    expect(container(render()).readinessProbe).toEqual({
      exec: { command: ['cast', 'chain-id'] },
      ...timing,
    });
    expect(container(render({ chain: 'ethereum' })).readinessProbe).toEqual({
      httpGet: { path: '/', port: 8545 },
      ...timing,
    });
    expect(container(render()).livenessProbe).toBeUndefined();
  });

  it('runs as a non-root user without privileges, on a read-only root filesystem', () => {
    const objects = render({ chain: 'ethereum' });
    expect(podSpec(objects).securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 10001,
      runAsGroup: 10001,
      fsGroup: 10001,
      fsGroupChangePolicy: 'OnRootMismatch',
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(container(objects).securityContext).toEqual({
      runAsNonRoot: true,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(podSpec(objects).automountServiceAccountToken).toBe(false);
    expect(podSpec(objects).enableServiceLinks).toBe(false);
    expect(podSpec(objects).terminationGracePeriodSeconds).toBe(120);
  });

  it("follows an image's own user and root filesystem setting", () => {
    const objects = render({ chain: 'ethereum', nodeType: 'archive' });
    expect(podSpec(objects).securityContext).toMatchObject({ runAsUser: 2000, fsGroup: 2000 });
    expect(container(objects).securityContext!.readOnlyRootFilesystem).toBe(false);
    expect(container(objects).securityContext!.allowPrivilegeEscalation).toBe(false);
  });

  it('carries no account data, whatever the node object holds', () => {
    const accountId = randomUUID();
    const node = {
      ...NODE,
      accountId,
      email: 'owner@example.com',
      userId: 'user-123',
    } as TDnNodeSpec;
    const json = JSON.stringify(renderDnNode(node, SETTINGS, { running: true }));
    expect(json).not.toContain(accountId);
    expect(json).not.toContain('owner@example.com');
    expect(json).not.toContain('user-123');
    expect(json).not.toMatch(/"(accountId|email|userId)"/);
  });

  it('refuses a chain or node type the settings have no image for', () => {
    expect(() => render({ chain: 'bsc' })).toThrow(/no image for bsc full/);
    expect(() => render({ nodeType: 'archive' })).toThrow(/no image for localnet archive/);
  });
});

describe('the rendered objects against the Kubernetes models', () => {
  const shipped = Object.entries(SHIPPED.chains).flatMap(([chain, types]) =>
    (['full', 'archive'] as const)
      .filter((nodeType) => types[nodeType])
      .flatMap((nodeType) => [
        { chain, nodeType, running: true },
        { chain, nodeType, running: false },
      ]),
  );

  it('the shipped settings run localnet and ethereum, full and archive', () => {
    expect(shipped.map((s) => `${s.chain} ${s.nodeType}`)).toEqual(
      expect.arrayContaining([
        'localnet full',
        'localnet archive',
        'ethereum full',
        'ethereum archive',
      ]),
    );
  });

  it.each(shipped)(
    '$chain $nodeType (running: $running) has only model fields of model types',
    ({ chain, nodeType, running }) => {
      const objects = renderDnNode({ ...NODE, chain, nodeType }, SHIPPED, { running });
      expect(modelProblems(objects.statefulSet, 'V1StatefulSet')).toEqual([]);
      expect(modelProblems(objects.service, 'V1Service')).toEqual([]);
      expect(modelProblems(objects.pvc, 'V1PersistentVolumeClaim')).toEqual([]);
    },
  );

  it.each(shipped)(
    '$chain $nodeType (running: $running) goes through the client serializer unchanged',
    ({ chain, nodeType, running }) => {
      const objects = renderDnNode({ ...NODE, chain, nodeType }, SHIPPED, { running });
      const plain = (o: object): unknown => JSON.parse(JSON.stringify(o));
      expect(onTheWire(objects.statefulSet, 'V1StatefulSet')).toEqual(plain(objects.statefulSet));
      expect(onTheWire(objects.service, 'V1Service')).toEqual(plain(objects.service));
      expect(onTheWire(objects.pvc, 'V1PersistentVolumeClaim')).toEqual(plain(objects.pvc));
      const back: unknown = ObjectSerializer.deserialize(
        onTheWire(objects.statefulSet, 'V1StatefulSet'),
        'V1StatefulSet',
      );
      expect(back).toBeInstanceOf(k8s.V1StatefulSet);
      expect(plain(back as object)).toEqual(plain(objects.statefulSet));
    },
  );

  it('the checks catch a misspelt field and a wrong shape', () => {
    const { statefulSet } = render();
    const c = statefulSet.spec!.template.spec!.containers[0]!;
    const broken = {
      ...statefulSet,
      spec: {
        ...statefulSet.spec!,
        replicas: '1',
        template: {
          ...statefulSet.spec!.template,
          spec: {
            ...statefulSet.spec!.template.spec!,
            containers: [{ ...c, readinesProbe: c.readinessProbe, ports: { http: 8545 } }],
          },
        },
      },
    };
    expect(modelProblems(broken, 'V1StatefulSet')).toEqual([
      expect.stringMatching(/^\$\.spec\.replicas: not a number/),
      expect.stringMatching(/^\$\.spec\.template\.spec\.containers\[0\]\.ports: not an array/),
      '$.spec.template.spec.containers[0].readinesProbe: not a field of V1Container',
    ]);
    // The serializer drops what its model does not know: sent, a misspelt field would be lost without a word.
    const misspelt = {
      ...statefulSet,
      spec: { ...statefulSet.spec!, replica: 1 },
    };
    expect(modelProblems(misspelt, 'V1StatefulSet')).toEqual([
      '$.spec.replica: not a field of V1StatefulSetSpec',
    ]);
    expect(onTheWire(misspelt, 'V1StatefulSet')).not.toEqual(JSON.parse(JSON.stringify(misspelt)));
  });
});

describe('checkDnK8sSettings', () => {
  const DELETE = Symbol('delete');
  /** The shipped settings as read from the file, with the value at `at` replaced (or deleted). */
  const changed = (at: string[], value: unknown) => {
    const file = JSON.parse(JSON.stringify(SHIPPED)) as Record<string, unknown>;
    delete file.namespace;
    let parent = file;
    for (const key of at.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
    if (value === DELETE) delete parent[at.at(-1)!];
    else parent[at.at(-1)!] = value;
    return file;
  };

  it('accepts the shipped file', () => {
    expect(checkDnK8sSettings(changed(['$comment'], 'kept'), 'ns').namespace).toBe('ns');
  });

  it.each([
    [
      'a bad quantity',
      ['nodeTypes', 'full', 'storageSize'],
      'lots',
      /nodeTypes\.full\.storageSize/,
    ],
    ['no command', ['chains', 'localnet', 'full', 'command'], DELETE, /localnet\.full\.command/],
    ['root', ['chains', 'ethereum', 'full', 'runAsUser'], 0, /ethereum\.full\.runAsUser/],
    ['an unknown field', ['chains', 'ethereum', 'full', 'imagee'], 'x', /ethereum\.full: .*imagee/],
    ['a bad label', ['labels'], { 'bad key!': 'x' }, /labels/],
    ['no node type defaults', ['nodeTypes', 'archive'], DELETE, /nodeTypes\.archive/],
  ])('refuses %s, naming the field', (_why, at, value, where) => {
    expect(() => checkDnK8sSettings(changed(at, value), 'ns', 'dn-k8s.json')).toThrow(where);
  });
});
