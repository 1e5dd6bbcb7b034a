/**
 * npm run ops:banner -- add --lang en|zh|all --text "Maintenance on Sunday 02:00–03:00 UTC" [--level warning]
 *                        [--link https://status.example.com] --from 2026-12-06T01:00:00Z --to 2026-12-06T03:00:00Z
 * npm run ops:banner -- list [--all]
 * npm run ops:banner -- end <banner id>
 *
 * The operator's announcement at the top of the dashboard (hub_getBanner), shown to users of its language between
 * --from and --to. Links must be http(s). Uses DATABASE_URL, else the PGlite database in DATA_DIR (stop the server
 * first: PGlite is single-process). docs/decisions/support-and-banners.md.
 */
import { openDatabase } from '@rpc/db';
import { systemClock } from '../src/lib/clock';
import { runBannerCommand } from '../src/services/support/banner-command';

const db = await openDatabase({
  databaseUrl: process.env.DATABASE_URL,
  dataDir: process.env.DATA_DIR ?? './data',
  maxConnections: 1,
});
try {
  const outcome = await runBannerCommand(db.db, process.argv.slice(2), systemClock.now());
  for (const line of outcome.lines) (outcome.exitCode === 0 ? console.log : console.error)(line);
  process.exitCode = outcome.exitCode;
} finally {
  await db.close();
}
