import { describe, expect, it } from 'vitest';
import { METHOD_NAMES } from './methods';
import { buildOpenRpcDocument, methodTag } from './openrpc';

describe('the OpenRPC document', () => {
  it('tags every method with its domain, so readers can group them', () => {
    expect(METHOD_NAMES.filter((name) => !methodTag(name))).toEqual([]);
    const doc = buildOpenRpcDocument('test') as {
      methods: { name: string; tags?: { name: string }[] }[];
    };
    const tagOf = (name: string) => doc.methods.find((m) => m.name === name)?.tags?.[0]?.name;
    expect(tagOf('hub_generateApiKey')).toBe('api-keys');
    expect(tagOf('hub_login')).toBe('account');
    expect(tagOf('hub_reportUserRuUsage')).toBe('reports');
  });
});
