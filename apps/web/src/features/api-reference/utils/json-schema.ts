/**
 * JSON Schema (as the contract's zod schemas export it) turned into a tree a page can read aloud: a type with its
 * nested fields, enum values, union variants, nullability and constraints. The words are the caller's (i18n);
 * this module only decides the structure.
 */

export type TJsonSchema = boolean | { [key: string]: unknown };

export type TPrimitiveName = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'any';

export type TSchemaType =
  | { kind: 'primitive'; name: TPrimitiveName }
  /** a fixed set of values (enum, or a union of consts) */
  | { kind: 'enum'; values: readonly unknown[] }
  | { kind: 'const'; value: unknown }
  /** `fields` are the named properties; `rest` the type of any other key (a map), when it has one */
  | { kind: 'object'; fields: readonly TSchemaField[]; rest?: TSchemaNode }
  | { kind: 'array'; items: TSchemaNode }
  | { kind: 'tuple'; items: readonly TSchemaNode[] }
  | { kind: 'union'; variants: readonly TSchemaNode[] }
  /** a $ref the reader follows by name */
  | { kind: 'ref'; ref: string };

export type TSchemaConstraint =
  | { kind: 'minLength' | 'maxLength' | 'minItems' | 'maxItems'; value: number }
  | { kind: 'minimum' | 'maximum' | 'exclusiveMinimum' | 'exclusiveMaximum'; value: number }
  | { kind: 'pattern' | 'format'; value: string };

export type TSchemaNode = {
  type: TSchemaType;
  /** null is accepted as well */
  isNullable: boolean;
  constraints: readonly TSchemaConstraint[];
  description?: string;
  /** present when the schema names a default (a value may be undefined only when absent) */
  hasDefault: boolean;
  defaultValue?: unknown;
};

export type TSchemaField = { name: string; isRequired: boolean; node: TSchemaNode };

/** zod's bounds of a safe integer: true of every integer field, so they say nothing to a reader. */
const SAFE_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);
/** How deep a schema is followed: enough for every real document, and a guard against a hostile one. */
const MAX_DEPTH = 12;

const ANY: TSchemaNode = {
  type: { kind: 'primitive', name: 'any' },
  isNullable: false,
  constraints: [],
  hasDefault: false,
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNullSchema(s: unknown): boolean {
  return isRecord(s) && (s.type === 'null' || (s.const === null && s.type === undefined));
}

function constraintsOf(s: Record<string, unknown>): TSchemaConstraint[] {
  const out: TSchemaConstraint[] = [];
  for (const kind of ['minLength', 'maxLength', 'minItems', 'maxItems'] as const) {
    if (typeof s[kind] === 'number') out.push({ kind, value: s[kind] });
  }
  for (const kind of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const) {
    const value = s[kind];
    if (typeof value === 'number' && !SAFE_BOUNDS.has(value)) out.push({ kind, value });
  }
  if (typeof s.format === 'string') out.push({ kind: 'format', value: s.format });
  // A format already says what the pattern spells out (a uuid's pattern is a line of noise).
  else if (typeof s.pattern === 'string') out.push({ kind: 'pattern', value: s.pattern });
  return out;
}

function primitive(name: string): TSchemaType {
  const known: readonly string[] = ['string', 'integer', 'number', 'boolean', 'null'];
  return { kind: 'primitive', name: (known.includes(name) ? name : 'any') as TPrimitiveName };
}

/** Merges a list of alternatives: nulls become nullability, consts a single enum, one left is itself. */
function fromAlternatives(
  options: readonly unknown[],
  depth: number,
): { type: TSchemaType; isNullable: boolean } {
  const isNullable = options.some(isNullSchema);
  const rest = options.filter((o) => !isNullSchema(o));
  if (rest.length > 0 && rest.every((o) => isRecord(o) && 'const' in o)) {
    return {
      type: { kind: 'enum', values: rest.map((o) => (o as { const: unknown }).const) },
      isNullable,
    };
  }
  const variants = rest.map((o) => describeSchema(o as TJsonSchema, depth + 1));
  if (variants.length === 0) return { type: primitive('null'), isNullable: false };
  if (variants.length === 1) {
    const only = variants[0]!;
    return { type: only.type, isNullable: isNullable || only.isNullable };
  }
  return { type: { kind: 'union', variants }, isNullable };
}

function typeOf(
  s: Record<string, unknown>,
  depth: number,
): { type: TSchemaType; isNullable: boolean } {
  if (typeof s.$ref === 'string') return { type: { kind: 'ref', ref: s.$ref }, isNullable: false };
  const alternatives = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : null;
  if (alternatives) return fromAlternatives(alternatives, depth);
  if (Array.isArray(s.enum)) {
    const values = s.enum.filter((v) => v !== null);
    return { type: { kind: 'enum', values }, isNullable: values.length < s.enum.length };
  }
  if ('const' in s) return { type: { kind: 'const', value: s.const }, isNullable: false };

  // type: ['string', 'null'] is a nullable string; ['string', 'number'] a union of the two.
  if (Array.isArray(s.type)) {
    const names = s.type.filter((t): t is string => typeof t === 'string');
    const isNullable = names.includes('null');
    const others = names.filter((n) => n !== 'null');
    if (others.length === 1)
      return { type: typeOf({ ...s, type: others[0] }, depth).type, isNullable };
    const variants = others.map((name) => describeSchema({ ...s, type: name }, depth + 1));
    return { type: { kind: 'union', variants }, isNullable };
  }

  const name =
    typeof s.type === 'string'
      ? s.type
      : isRecord(s.properties)
        ? 'object'
        : 'items' in s || 'prefixItems' in s
          ? 'array'
          : 'any';
  if (name === 'object') {
    const required = new Set(Array.isArray(s.required) ? s.required : []);
    const properties = isRecord(s.properties) ? s.properties : {};
    const fields = Object.entries(properties).map(([field, sub]) => ({
      name: field,
      isRequired: required.has(field),
      node: describeSchema(sub as TJsonSchema, depth + 1),
    }));
    const extra = s.additionalProperties;
    // {} (anything) on an object with named fields is zod's passthrough: not worth a line.
    const hasRest =
      (isRecord(extra) && (Object.keys(extra).length > 0 || fields.length === 0)) || extra === true;
    return {
      type: hasRest
        ? { kind: 'object', fields, rest: describeSchema(extra as TJsonSchema, depth + 1) }
        : { kind: 'object', fields },
      isNullable: false,
    };
  }
  if (name === 'array') {
    if (Array.isArray(s.prefixItems)) {
      const items = s.prefixItems.map((i) => describeSchema(i as TJsonSchema, depth + 1));
      return { type: { kind: 'tuple', items }, isNullable: false };
    }
    const items = s.items === undefined ? ANY : describeSchema(s.items as TJsonSchema, depth + 1);
    return { type: { kind: 'array', items }, isNullable: false };
  }
  return { type: primitive(name), isNullable: false };
}

/** The readable tree of one schema. Never throws: what it does not understand is "any". */
export function describeSchema(schema: TJsonSchema | undefined, depth = 0): TSchemaNode {
  if (!isRecord(schema) || depth > MAX_DEPTH) return ANY;
  const { type, isNullable } = typeOf(schema, depth);
  return {
    type,
    isNullable,
    constraints: constraintsOf(schema),
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    hasDefault: 'default' in schema,
    ...('default' in schema ? { defaultValue: schema.default } : {}),
  };
}

/** The fields of an object schema (a method's by-name params), or none for anything else. */
export function fieldsOf(node: TSchemaNode): readonly TSchemaField[] {
  return node.type.kind === 'object' ? node.type.fields : [];
}

/**
 * A short, language-neutral type label: `string`, `string[]`, `"a" | "b"`, `object`, `string | null`. Word-like
 * parts (object, any) stay English on purpose: they are JSON Schema's own names.
 */
export function typeLabel(node: TSchemaNode): string {
  const base = baseLabel(node.type);
  return node.isNullable ? `${base} | null` : base;
}

function baseLabel(type: TSchemaType): string {
  switch (type.kind) {
    case 'primitive':
      return type.name;
    case 'enum':
      return type.values.map((v) => JSON.stringify(v)).join(' | ');
    case 'const':
      return JSON.stringify(type.value);
    case 'object':
      return type.fields.length === 0 && type.rest
        ? `map<string, ${typeLabel(type.rest)}>`
        : 'object';
    case 'array': {
      const inner = typeLabel(type.items);
      // "a" | "b" as an element type needs brackets to read as one.
      return /[ |]/.test(inner) ? `(${inner})[]` : `${inner}[]`;
    }
    case 'tuple':
      return `[${type.items.map(typeLabel).join(', ')}]`;
    case 'union':
      return type.variants.map(typeLabel).join(' | ');
    case 'ref':
      return type.ref.replace(/^#\/(components\/schemas|\$defs|definitions)\//, '');
  }
}

/** The object whose fields are listed under a node: the node itself, or the element of an array of objects. */
export function nestedObject(node: TSchemaNode): (TSchemaType & { kind: 'object' }) | null {
  if (node.type.kind === 'object' && node.type.fields.length > 0) return node.type;
  // A map lists the fields of its values.
  if (node.type.kind === 'object' && node.type.rest) return nestedObject(node.type.rest);
  if (node.type.kind === 'array') return nestedObject(node.type.items);
  return null;
}

/** The union variants listed under a node (a union, or an array of a union), when any of them has fields. */
export function nestedVariants(node: TSchemaNode): readonly TSchemaNode[] {
  if (node.type.kind === 'union') {
    return node.type.variants.some((v) => nestedObject(v)) ? node.type.variants : [];
  }
  if (node.type.kind === 'array') return nestedVariants(node.type.items);
  return [];
}
