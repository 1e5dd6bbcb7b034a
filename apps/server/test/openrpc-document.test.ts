/**
 * docs/openrpc.json is what we publish; rpc.discover answers from the contract. This keeps the two equal: a method,
 * param or error added to the contract fails here until `npm run docs:openrpc` has written the document again.
 */
import { readFileSync } from 'node:fs';
import { buildOpenRpcDocument } from '@rpc/contract';
import { describe, expect, it } from 'vitest';

const read = (relative: string): unknown =>
  JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8'));

describe('docs/openrpc.json', () => {
  it('equals the document rpc.discover answers (run `npm run docs:openrpc` after changing the contract)', () => {
    const { version } = read('../package.json') as { version: string };
    const published = read('../../../docs/openrpc.json');
    expect(published).toEqual(JSON.parse(JSON.stringify(buildOpenRpcDocument(version))));
  });
});
