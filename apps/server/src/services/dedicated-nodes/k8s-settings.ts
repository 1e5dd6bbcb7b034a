/**
 * What the Kubernetes driver runs, per chain and node type: images, storage, resources, extra labels. Versioned data
 * in config/dn-k8s.json (DN_K8S_SETTINGS points elsewhere), checked with zod at start: a bad file stops the server
 * with the reason rather than failing node by node later.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

export const DEFAULT_DN_K8S_SETTINGS_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../config/dn-k8s.json',
);

/** A Kubernetes resource quantity: 500m, 2, 1.5, 16Gi, 2Ti. */
const ZQuantitySchema = z
  .string()
  .regex(
    /^[0-9]+(\.[0-9]+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/,
    'must be a quantity (500m, 4, 16Gi)',
  );

const ZResourcesSchema = z
  .object({
    requests: z.object({ cpu: ZQuantitySchema, memory: ZQuantitySchema }).strict(),
    limits: z.object({ cpu: ZQuantitySchema.optional(), memory: ZQuantitySchema }).strict(),
  })
  .strict();
export type TDnK8sResources = z.infer<typeof ZResourcesSchema>;

/** A label key (optional DNS-subdomain prefix, then a name) and value, as Kubernetes validates them. */
const LABEL_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
const ZLabelKeySchema = z.string().refine((key) => {
  const slash = key.lastIndexOf('/');
  const name = slash < 0 ? key : key.slice(slash + 1);
  const prefix = slash < 0 ? null : key.slice(0, slash);
  return LABEL_NAME.test(name) && (prefix === null || DNS_SUBDOMAIN.test(prefix));
}, 'must be a label key ([prefix/]name)');
const ZLabelValueSchema = z
  .string()
  .refine((v) => v === '' || LABEL_NAME.test(v), 'must be a label value (≤ 63 characters)');

/**
 * How the pod tells it is ready: a command that succeeds once the node answers JSON-RPC (exec), or an HTTP GET that
 * answers 2xx (geth answers an empty GET on its RPC port with 200 for exactly this use).
 */
const ZReadinessSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('exec'), command: z.array(z.string().min(1)).min(1) }).strict(),
  z.object({ type: z.literal('httpGet'), path: z.string().startsWith('/') }).strict(),
]);
export type TDnK8sReadiness = z.infer<typeof ZReadinessSchema>;

const ZPortSchema = z.number().int().min(1).max(65535);

const ZImageSchema = z
  .object({
    image: z.string().regex(/^\S+$/, 'must be an image reference'),
    /** always given: images differ in their entrypoint (foundry's is a shell) */
    command: z.array(z.string().min(1)).min(1),
    args: z.array(z.string()).default([]),
    /** container ports; equal when the node serves WebSocket on its HTTP port (anvil) */
    httpPort: ZPortSchema.default(8545),
    wsPort: ZPortSchema.default(8546),
    /** where the volume is mounted: the node's data directory */
    dataPath: z.string().startsWith('/').default('/data'),
    readiness: ZReadinessSchema,
    /** a non-root uid the image runs as (also the volume's group, so the node can write it) */
    runAsUser: z.number().int().min(1).default(10001),
    /** false for images that write outside the data directory and /tmp */
    readOnlyRootFilesystem: z.boolean().default(true),
    /** time to flush the database on stop before the kubelet kills the process */
    terminationGracePeriodSeconds: z.number().int().min(0).max(3600).default(120),
    /** overrides of the node type's defaults */
    storageSize: ZQuantitySchema.optional(),
    resources: ZResourcesSchema.optional(),
  })
  .strict();
export type TDnK8sImage = z.infer<typeof ZImageSchema>;

const ZNodeTypeDefaultsSchema = z
  .object({
    /** null: the cluster's default storage class */
    storageClassName: z.string().min(1).nullable(),
    storageSize: ZQuantitySchema,
    resources: ZResourcesSchema,
  })
  .strict();

export const ZDnK8sSettingsFileSchema = z
  .object({
    $comment: z.string().optional(),
    /** added to every object (ours win on a clash); never account data */
    labels: z.record(ZLabelKeySchema, ZLabelValueSchema).default({}),
    nodeTypes: z
      .object({ full: ZNodeTypeDefaultsSchema, archive: ZNodeTypeDefaultsSchema })
      .strict(),
    /** chain id (config/dn-skus.json) → node type → what runs it; a chain without an entry cannot be run */
    chains: z.record(
      z.string().min(1),
      z.object({ full: ZImageSchema.optional(), archive: ZImageSchema.optional() }).strict(),
    ),
  })
  .strict();

export type TDnK8sSettings = z.infer<typeof ZDnK8sSettingsFileSchema> & {
  /** where the nodes' objects live (DN_K8S_NAMESPACE) */
  namespace: string;
};

/** Reads and checks a settings file; throws an Error naming the file and every bad field. */
export function loadDnK8sSettings(
  namespace: string,
  file: string = DEFAULT_DN_K8S_SETTINGS_FILE,
): TDnK8sSettings {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(
      `dedicated-node Kubernetes settings ${file}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  return checkDnK8sSettings(raw, namespace, file);
}

/** The checks of loadDnK8sSettings on data already read (tests build settings in code). */
export function checkDnK8sSettings(
  data: unknown,
  namespace: string,
  source = 'settings',
): TDnK8sSettings {
  const parsed = ZDnK8sSettingsFileSchema.safeParse(data);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`dedicated-node Kubernetes settings ${source}:\n${lines.join('\n')}`);
  }
  return { ...parsed.data, namespace };
}
