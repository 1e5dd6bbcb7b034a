/**
 * The console API's OpenRPC document (rpc.discover) read defensively into what the reference page shows, with
 * the page's grouping, search and example request body as pure functions.
 */
import type { TJsonSchema, TSchemaNode } from './json-schema';
import { describeSchema } from './json-schema';

export type TRefError = { code: number; message: string };

export type TRefParam = { name: string; isRequired: boolean; schema: TJsonSchema };

export type TRefMethod = {
  name: string;
  summary: string;
  description?: string;
  /** the domain the document tags the method with; '' when it has none */
  tag: string;
  params: readonly TRefParam[];
  /** 'by-name': the params are one object (the console API's way); 'by-position': an array */
  paramStructure: 'by-name' | 'by-position' | 'either';
  result?: TJsonSchema;
  /** 'none' (anyone) or 'user' (a session) */
  auth: string;
  /** what the caller's role on the acting account must allow */
  permission?: string;
  /** the account comes from the teamId param rather than the X-Team-Id header */
  isTeamFromParams: boolean;
  errors: readonly TRefError[];
};

export type TApiReference = {
  title: string;
  version: string;
  description?: string;
  methods: readonly TRefMethod[];
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value : undefined;

function schemaOf(value: unknown): TJsonSchema | undefined {
  return isRecord(value) || typeof value === 'boolean' ? (value as TJsonSchema) : undefined;
}

/** An error entry, or a $ref to one of components.errors. */
function readError(value: unknown, shared: Record<string, unknown>): TRefError | null {
  if (!isRecord(value)) return null;
  const ref = text(value.$ref);
  const entry = ref ? shared[ref.replace(/^#\/components\/errors\//, '')] : value;
  if (!isRecord(entry) || typeof entry.code !== 'number') return null;
  return { code: entry.code, message: text(entry.message) ?? '' };
}

function readMethod(value: unknown, sharedErrors: Record<string, unknown>): TRefMethod | null {
  if (!isRecord(value)) return null;
  const name = text(value.name);
  if (!name) return null;
  const tags = Array.isArray(value.tags) ? value.tags : [];
  const firstTag = tags[0];
  const tag = (isRecord(firstTag) ? text(firstTag.name) : text(firstTag)) ?? '';
  const params = (Array.isArray(value.params) ? value.params : []).flatMap((p): TRefParam[] => {
    if (!isRecord(p) || !text(p.name)) return [];
    return [
      { name: p.name as string, isRequired: p.required === true, schema: schemaOf(p.schema) ?? {} },
    ];
  });
  const result = isRecord(value.result) ? schemaOf(value.result.schema) : undefined;
  const structure = value.paramStructure;
  const description = text(value.description);
  const permission = text(value['x-permission']);
  return {
    name,
    summary: text(value.summary) ?? '',
    ...(description ? { description } : {}),
    tag,
    params,
    paramStructure: structure === 'by-name' || structure === 'by-position' ? structure : 'either',
    ...(result !== undefined ? { result } : {}),
    auth: text(value['x-auth']) ?? 'none',
    ...(permission ? { permission } : {}),
    isTeamFromParams: value['x-team-from'] === 'params',
    errors: (Array.isArray(value.errors) ? value.errors : [])
      .map((e) => readError(e, sharedErrors))
      .filter((e): e is TRefError => e !== null),
  };
}

/** Reads an OpenRPC document; throws when it is not one (the page shows its error state). */
export function parseOpenRpcDocument(raw: unknown): TApiReference {
  if (!isRecord(raw) || !Array.isArray(raw.methods)) {
    throw new Error('rpc.discover did not answer an OpenRPC document');
  }
  const info = isRecord(raw.info) ? raw.info : {};
  const components = isRecord(raw.components) ? raw.components : {};
  const sharedErrors = isRecord(components.errors) ? components.errors : {};
  const description = text(info.description);
  return {
    title: text(info.title) ?? 'API',
    version: text(info.version) ?? '',
    ...(description ? { description } : {}),
    methods: raw.methods
      .map((m) => readMethod(m, sharedErrors))
      .filter((m): m is TRefMethod => m !== null),
  };
}

/** Methods whose name, summary or description contain every word of the query (case-insensitive). */
export function searchMethods(methods: readonly TRefMethod[], query: string): TRefMethod[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...methods];
  return methods.filter((m) => {
    const haystack = `${m.name} ${m.summary} ${m.description ?? ''}`.toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
}

export type TMethodGroup = { tag: string; methods: readonly TRefMethod[] };

/** Groups by tag in the document's order of first appearance; methods keep their order inside a group. */
export function groupMethods(methods: readonly TRefMethod[]): TMethodGroup[] {
  const groups = new Map<string, TRefMethod[]>();
  for (const m of methods) {
    const list = groups.get(m.tag);
    if (list) list.push(m);
    else groups.set(m.tag, [m]);
  }
  return [...groups].map(([tag, list]) => ({ tag, methods: list }));
}

/** The element id of a method's section: its name, so /rpc/api-reference#hub_generateApiKey deep-links. */
export function methodAnchor(name: string): string {
  return name;
}

/** The element id of a group's heading. */
export function groupAnchor(tag: string): string {
  return `group-${tag || 'other'}`;
}

const EXAMPLE_UUID = '00000000-0000-4000-8000-000000000000';

/** A plausible value for a schema: its default, else the first allowed value, else an empty one of its type. */
export function exampleValue(node: TSchemaNode, depth = 0): unknown {
  if (node.hasDefault) return node.defaultValue;
  const { type } = node;
  switch (type.kind) {
    case 'enum':
      return type.values[0] ?? null;
    case 'const':
      return type.value;
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth > 6) return out;
      for (const f of type.fields) if (f.isRequired) out[f.name] = exampleValue(f.node, depth + 1);
      return out;
    }
    case 'array':
      return [];
    case 'tuple':
      return type.items.map((i) => exampleValue(i, depth + 1));
    case 'union':
      return type.variants[0] ? exampleValue(type.variants[0], depth + 1) : null;
    case 'ref':
      return null;
    case 'primitive':
      break;
  }
  const min = node.constraints.find((c) => c.kind === 'minimum');
  const format = node.constraints.find((c) => c.kind === 'format');
  switch (type.name) {
    case 'string':
      if (format?.value === 'uuid') return EXAMPLE_UUID;
      if (format?.value === 'email') return 'me@example.com';
      return '';
    case 'integer':
    case 'number':
      return typeof min?.value === 'number' ? min.value : 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'any':
      return null;
  }
}

/** The params of an example call: the one by-name object with its required fields, or a positional array. */
export function exampleParams(method: TRefMethod): unknown {
  if (method.paramStructure === 'by-position') {
    return method.params
      .filter((p) => p.isRequired)
      .map((p) => exampleValue(describeSchema(p.schema)));
  }
  if (method.params.length === 1) return exampleValue(describeSchema(method.params[0]!.schema));
  const out: Record<string, unknown> = {};
  for (const p of method.params)
    if (p.isRequired) out[p.name] = exampleValue(describeSchema(p.schema));
  return out;
}

/** The body of POST /api for a method, pretty-printed, as a user would paste it. */
export function exampleRequestBody(method: TRefMethod): string {
  return JSON.stringify({ method: method.name, params: exampleParams(method), id: 1 }, null, 2);
}
