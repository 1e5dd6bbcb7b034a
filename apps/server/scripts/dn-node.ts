/**
 * npm run ops:dn-node -- stop <node id> --why "abuse report #123"
 * npm run ops:dn-node -- start <node id>
 *
 * An operator stops a dedicated node (status stopped: the gateway refuses it within seconds, the console's lifecycle
 * sweep stops its process and keeps its data; its term runs on) or starts a stopped one again (pending, then online
 * once the sweep has provisioned it). The owner gets a notice. Uses DATABASE_URL, else the PGlite database in
 * DATA_DIR (stop the server first: PGlite is single-process).
 */
import { parseArgs } from 'node:util';
import { openDatabase } from '@rpc/db';
import { loadDnCatalogue } from '../src/services/dedicated-nodes/dn-catalogue';
import {
  startNodeByOperator,
  stopNodeByOperator,
  type TOperatorDeps,
} from '../src/services/dedicated-nodes/operator-actions';
import { systemClock } from '../src/lib/clock';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { why: { type: 'string', default: 'operator action' } },
});
const [action, nodeId] = positionals;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

if ((action !== 'stop' && action !== 'start') || !nodeId)
  fail('usage: ops:dn-node -- stop|start <node id> [--why "reason"]');
if (!/^[0-9a-f-]{36}$/i.test(nodeId)) fail('the node id is a uuid');

const db = await openDatabase({
  databaseUrl: process.env.DATABASE_URL,
  dataDir: process.env.DATA_DIR ?? './data',
  maxConnections: 1,
});
// Only the status changes here: the console's sweep, which owns the driver, stops or starts what runs. The notice
// is stored (and mailed) here; a signed-in owner sees it at the next page load rather than live.
const deps: TOperatorDeps = {
  db: db.db,
  clock: systemClock,
  noticeBus: { push: () => {}, endSessions: () => {} },
  dnSkus: loadDnCatalogue(),
};
try {
  const outcome =
    action === 'stop'
      ? await stopNodeByOperator(deps, nodeId, values.why)
      : await startNodeByOperator(deps, nodeId);
  console.log(`${action} ${nodeId}: ${outcome}`);
  if (outcome === 'not_found' || outcome === 'not_applicable') process.exitCode = 1;
} finally {
  await db.close();
}
