/**
 * The operator's banner commands (npm run ops:banner -- …), apart from the script so tests run them on a test
 * database: `add`, `list [--all]`, `end <id>`. Answers the lines to print and an exit code; never throws for bad
 * input.
 */
import { parseArgs } from 'node:util';
import type { TDatabase } from '@rpc/db';
import { addBanner, endBanner, listBanners, type TBannerInput } from './banners';

export const BANNER_USAGE = [
  'usage: ops:banner -- add --lang en|zh|all --text "…" [--level info|warning] [--link https://…] --from <ISO> --to <ISO>',
  '       ops:banner -- list [--all]',
  '       ops:banner -- end <banner id>',
].join('\n');

export type TBannerCommandOutcome = { lines: string[]; exitCode: number };

/** ISO 8601 with a date and, if a time is given, a zone (Z or ±hh:mm): "2026-12-01" is midnight UTC. */
function parseIso(value: string | undefined): number {
  if (!value) return Number.NaN;
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(value))
    return Number.NaN;
  return Date.parse(value);
}

export async function runBannerCommand(
  db: TDatabase,
  argv: string[],
  now: number,
): Promise<TBannerCommandOutcome> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        lang: { type: 'string' },
        text: { type: 'string' },
        level: { type: 'string', default: 'info' },
        link: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        all: { type: 'boolean', default: false },
      },
    });
  } catch (err) {
    return { lines: [(err as Error).message, BANNER_USAGE], exitCode: 2 };
  }
  const { values, positionals } = parsed;
  const [command, id] = positionals;

  if (command === 'add') {
    const input: TBannerInput = {
      language: (values.lang ?? '') as TBannerInput['language'],
      level: values.level as TBannerInput['level'],
      text: values.text ?? '',
      linkUrl: values.link ?? null,
      startsAt: parseIso(values.from),
      endsAt: parseIso(values.to),
    };
    try {
      const row = await addBanner(db, input);
      return {
        lines: [
          `added ${row.id} (${row.language}, ${row.level}) ${row.startsAt.toISOString()} → ${row.endsAt.toISOString()}`,
        ],
        exitCode: 0,
      };
    } catch (err) {
      return { lines: [(err as Error).message, BANNER_USAGE], exitCode: 2 };
    }
  }
  if (command === 'list') {
    const rows = await listBanners(db, { now, all: values.all });
    if (rows.length === 0) return { lines: ['no banners'], exitCode: 0 };
    return {
      lines: rows.map((r) => {
        const state =
          r.startsAt.getTime() > now ? 'scheduled' : r.endsAt.getTime() > now ? 'live' : 'ended';
        return `${r.id}  ${state.padEnd(9)} ${r.language.padEnd(3)} ${r.level.padEnd(7)} ${r.startsAt.toISOString()} → ${r.endsAt.toISOString()}  ${r.text}${r.linkUrl ? `  <${r.linkUrl}>` : ''}`;
      }),
      exitCode: 0,
    };
  }
  if (command === 'end' && id) {
    const ended = await endBanner(db, id, now);
    return ended
      ? { lines: [`ended ${id}`], exitCode: 0 }
      : { lines: [`no banner ${id}`], exitCode: 1 };
  }
  return { lines: [BANNER_USAGE], exitCode: 2 };
}
