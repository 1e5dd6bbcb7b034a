/**
 * npm run ops:grant-package -- --account <account id> --ref <ticket> --ru <RUs> [--days 30] [--tier premium]
 *   [--type enterprise|standard] [--name "Enterprise (ACME)"] [--name-zh "企业版 (ACME)"]
 *
 * Gives an account a package without payment (an enterprise package arranged with sales, or a credit package),
 * once per --ref, raising message_enterprise_package_send or credit_package_sent. Uses DATABASE_URL, else the
 * PGlite database in DATA_DIR (stop the server first: PGlite is single-process). The gateways pick the package up
 * within their 30-second re-sync (or at once when run inside the console, which publishes the key change).
 */
import { parseArgs } from 'node:util';
import { openDatabase } from '@rpc/db';
import { tiers } from '@rpc/gateway';
import { grantPackage } from '../src/services/wallet/grant-package';

const { values } = parseArgs({
  options: {
    account: { type: 'string' },
    ref: { type: 'string' },
    ru: { type: 'string' },
    days: { type: 'string', default: '30' },
    tier: { type: 'string', default: 'premium' },
    type: { type: 'string', default: 'enterprise' },
    name: { type: 'string', default: 'Enterprise package' },
    'name-zh': { type: 'string', default: '企业套餐' },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

if (!values.account || !values.ref || !values.ru) fail('--account, --ref and --ru are required');
if (values.type !== 'enterprise' && values.type !== 'standard')
  fail('--type is enterprise or standard');
if (!tiers.some((t) => t.id === values.tier))
  fail(`--tier is one of ${tiers.map((t) => t.id).join(', ')}`);

const db = await openDatabase({
  databaseUrl: process.env.DATABASE_URL,
  dataDir: process.env.DATA_DIR ?? './data',
  maxConnections: 1,
});
try {
  const outcome = await grantPackage(db.db, {
    accountId: values.account,
    ref: values.ref,
    type: values.type,
    name: { en: values.name, zh: values['name-zh'] },
    ru: Number(values.ru),
    validityDays: Number(values.days),
    tier: values.tier,
    now: Date.now(),
  });
  console.log(
    outcome.isNew
      ? `granted package ${outcome.pkg.id} (${outcome.pkg.ruTotal} RU until ${outcome.pkg.expiresAt?.toISOString()})`
      : `already granted under ref ${values.ref}: package ${outcome.pkg.id}`,
  );
} finally {
  await db.close();
}
