/** npm run docs:openrpc — writes docs/openrpc.json from the contract, so the published document never drifts from the code. */
import { readFileSync, writeFileSync } from 'node:fs';
import { buildOpenRpcDocument } from '@rpc/contract';

const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as {
  version: string;
};
const target = new URL('../../../docs/openrpc.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(buildOpenRpcDocument(version), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
