/** Pure helpers of the API reference: JSON Schema read as a tree, and the OpenRPC document read defensively. */
import { buildOpenRpcDocument } from '@rpc/contract';
import { describe, expect, it } from 'vitest';
import type { TJsonSchema } from './json-schema';
import { describeSchema, fieldsOf, nestedObject, nestedVariants, typeLabel } from './json-schema';
import {
  exampleParams,
  exampleRequestBody,
  groupMethods,
  parseOpenRpcDocument,
  searchMethods,
} from './openrpc-document';

const SAFE = Number.MAX_SAFE_INTEGER;

describe('describeSchema / typeLabel', () => {
  it.each<[string, TJsonSchema, string]>([
    ['string', { type: 'string' }, 'string'],
    [
      'safe integer bounds say nothing',
      { type: 'integer', minimum: -SAFE, maximum: SAFE },
      'integer',
    ],
    ['enum', { type: 'string', enum: ['auto', 'globalcast'] }, '"auto" | "globalcast"'],
    ['enum with null', { enum: ['a', null] }, '"a" | null'],
    ['union of consts is an enum', { anyOf: [{ const: 0 }, { const: 1 }] }, '0 | 1'],
    ['nullable via type list', { type: ['string', 'null'] }, 'string | null'],
    ['nullable via anyOf', { anyOf: [{ type: 'integer' }, { type: 'null' }] }, 'integer | null'],
    ['union of primitives', { type: ['string', 'number'] }, 'string | number'],
    ['array', { type: 'array', items: { type: 'string' } }, 'string[]'],
    ['array of an enum', { type: 'array', items: { enum: ['a', 'b'] } }, '("a" | "b")[]'],
    [
      'map',
      {
        type: 'object',
        propertyNames: { type: 'string' },
        additionalProperties: { type: 'integer' },
      },
      'map<string, integer>',
    ],
    [
      'tuple',
      { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] },
      '[string, integer]',
    ],
    ['const', { type: 'boolean', const: true }, 'true'],
    ['ref', { $ref: '#/components/schemas/Key' }, 'Key'],
    ['nothing known', {}, 'any'],
    ['true schema', true, 'any'],
  ])('%s', (_name, schema, label) => {
    expect(typeLabel(describeSchema(schema))).toBe(label);
  });

  it('lists nested fields with required flags, constraints and defaults', () => {
    const node = describeSchema({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 40 },
        page: { type: 'integer', minimum: 1, maximum: SAFE, default: 1 },
        keyId: { type: 'string', format: 'uuid', pattern: '^[0-9a-f-]+$' },
        allowlists: {
          type: 'object',
          properties: { ips: { type: 'array', maxItems: 100, items: { type: 'string' } } },
          required: ['ips'],
        },
        list: {
          type: 'array',
          items: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        },
      },
      required: ['name'],
    });
    const fields = fieldsOf(node);
    expect(fields.map((f) => [f.name, f.isRequired])).toEqual([
      ['name', true],
      ['page', false],
      ['keyId', false],
      ['allowlists', false],
      ['list', false],
    ]);
    expect(fields[0]!.node.constraints).toEqual([
      { kind: 'minLength', value: 1 },
      { kind: 'maxLength', value: 40 },
    ]);
    expect(fields[1]!.node).toMatchObject({
      constraints: [{ kind: 'minimum', value: 1 }],
      hasDefault: true,
      defaultValue: 1,
    });
    // a format says what the pattern spells out
    expect(fields[2]!.node.constraints).toEqual([{ kind: 'format', value: 'uuid' }]);
    expect(nestedObject(fields[3]!.node)?.fields[0]).toMatchObject({
      name: 'ips',
      isRequired: true,
    });
    expect(typeLabel(fields[4]!.node)).toBe('object[]');
    expect(nestedObject(fields[4]!.node)?.fields.map((f) => f.name)).toEqual(['id']);
  });

  it('keeps the variants of a union of objects', () => {
    const node = describeSchema({
      anyOf: [
        { type: 'object', properties: { kind: { const: 'a' }, amount: { type: 'number' } } },
        { type: 'object', properties: { kind: { const: 'b' } } },
        { type: 'null' },
      ],
    });
    expect(node.isNullable).toBe(true);
    expect(typeLabel(node)).toBe('object | object | null');
    expect(nestedVariants(node).map((v) => fieldsOf(v).map((f) => f.name))).toEqual([
      ['kind', 'amount'],
      ['kind'],
    ]);
  });

  it('stops at a hostile depth instead of recursing forever', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100; i++) deep = { type: 'array', items: deep };
    expect(typeLabel(describeSchema(deep))).toMatch(/^any(\[\])+$/);
  });
});

const doc = {
  openrpc: '1.3.2',
  info: { title: 'Console API', version: '1.2.3' },
  methods: [
    {
      name: 'hub_b',
      summary: 'Second thing',
      tags: [{ name: 'keys' }],
      paramStructure: 'by-name',
      params: [{ name: 'params', required: true, schema: { type: 'object', properties: {} } }],
      result: { name: 'result', schema: { type: 'object' } },
      'x-auth': 'user',
      'x-permission': 'keys',
      errors: [{ $ref: '#/components/errors/50409' }, { code: 1, message: 'inline' }, 'junk'],
    },
    { name: 'hub_a', summary: 'First thing about balances', tags: ['account'], 'x-auth': 'none' },
    {
      name: 'hub_c',
      summary: 'Third',
      description: 'Mentions balances too',
      tags: [{ name: 'keys' }],
    },
    { summary: 'no name: skipped' },
  ],
  components: { errors: { '50409': { code: 50409, message: 'Too many keys.' } } },
};

describe('parseOpenRpcDocument', () => {
  it('reads methods, tags, access and errors (refs resolved), skipping what is not a method', () => {
    const ref = parseOpenRpcDocument(doc);
    expect(ref).toMatchObject({ title: 'Console API', version: '1.2.3' });
    expect(ref.methods.map((m) => m.name)).toEqual(['hub_b', 'hub_a', 'hub_c']);
    expect(ref.methods[0]).toMatchObject({
      tag: 'keys',
      auth: 'user',
      permission: 'keys',
      paramStructure: 'by-name',
      errors: [
        { code: 50409, message: 'Too many keys.' },
        { code: 1, message: 'inline' },
      ],
    });
    expect(ref.methods[1]).toMatchObject({ tag: 'account', auth: 'none', params: [], errors: [] });
  });

  it('refuses what is not an OpenRPC document', () => {
    expect(() => parseOpenRpcDocument(null)).toThrow();
    expect(() => parseOpenRpcDocument({ methods: 'x' })).toThrow();
  });

  it('reads the contract’s own document: every method, tagged, with its permission', () => {
    const ref = parseOpenRpcDocument(buildOpenRpcDocument('test'));
    const generate = ref.methods.find((m) => m.name === 'hub_generateApiKey')!;
    expect(generate).toMatchObject({ tag: 'api-keys', auth: 'user', permission: 'keys' });
    expect(ref.methods.every((m) => m.tag !== '')).toBe(true);
    expect(exampleParams(generate)).toEqual({ name: '' });
  });
});

describe('searchMethods / groupMethods', () => {
  const { methods } = parseOpenRpcDocument(doc);

  it('matches every word in name, summary or description, any case', () => {
    expect(searchMethods(methods, 'BALANCES').map((m) => m.name)).toEqual(['hub_a', 'hub_c']);
    expect(searchMethods(methods, 'hub_ first').map((m) => m.name)).toEqual(['hub_a']);
    expect(searchMethods(methods, '  ')).toHaveLength(3);
    expect(searchMethods(methods, 'nothing-like-it')).toEqual([]);
  });

  it('groups by tag in the order the document first names them', () => {
    expect(groupMethods(methods).map((g) => [g.tag, g.methods.map((m) => m.name)])).toEqual([
      ['keys', ['hub_b', 'hub_c']],
      ['account', ['hub_a']],
    ]);
  });
});

describe('exampleRequestBody', () => {
  it('fills required params with defaults, first enum values and typed placeholders', () => {
    const [method] = parseOpenRpcDocument({
      methods: [
        {
          name: 'hub_x',
          paramStructure: 'by-name',
          params: [
            {
              name: 'params',
              required: true,
              schema: {
                type: 'object',
                properties: {
                  keyId: { type: 'string', format: 'uuid' },
                  mev: { type: 'string', enum: ['', 'auto'] },
                  page: { type: 'integer', minimum: 1, default: 1 },
                  perPage: { type: 'integer', minimum: 1 },
                  enabled: { type: 'boolean' },
                  lists: {
                    type: 'object',
                    properties: { ips: { type: 'array' } },
                    required: ['ips'],
                  },
                  optional: { type: 'string' },
                },
                required: ['keyId', 'mev', 'page', 'perPage', 'enabled', 'lists'],
              },
            },
          ],
        },
      ],
    }).methods;
    expect(JSON.parse(exampleRequestBody(method!))).toEqual({
      method: 'hub_x',
      params: {
        keyId: '00000000-0000-4000-8000-000000000000',
        mev: '',
        page: 1,
        perPage: 1,
        enabled: false,
        lists: { ips: [] },
      },
      id: 1,
    });
  });
});
