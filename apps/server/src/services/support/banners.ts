/**
 * Operator banners: the one live for a language (hub_getBanner) and what the operator script manages
 * (scripts/banner.ts). A banner is live from its start (inclusive) to its end (exclusive).
 */
import { BANNER_TEXT_MAX, isSafeHttpUrl, type TBanner, type TLanguage } from '@rpc/contract';
import { banners, users, type TBannerRow, type TDatabase } from '@rpc/db';
import { and, desc, eq, gt, inArray, lte } from 'drizzle-orm';

export type TBannerInput = {
  language: 'en' | 'zh' | 'all';
  level: 'info' | 'warning';
  text: string;
  linkUrl: string | null;
  startsAt: number;
  endsAt: number;
};

export function toBanner(row: TBannerRow): TBanner {
  return {
    bannerId: row.id,
    level: row.level,
    text: row.text,
    // Checked when added; checked again so a row edited by hand can never put another scheme in front of users.
    linkUrl: row.linkUrl && isSafeHttpUrl(row.linkUrl) ? row.linkUrl : null,
    startsAt: row.startsAt.getTime(),
    endsAt: row.endsAt.getTime(),
  };
}

/** The banner live at `now` for `language` (or the user's saved language), the latest started first; or null. */
export async function getLiveBanner(o: {
  deps: { db: TDatabase; clock: { now: () => number } };
  userId: string;
  language?: TLanguage | undefined;
}): Promise<TBanner | null> {
  const { db } = o.deps;
  let language = o.language;
  if (!language) {
    const [user] = await db
      .select({ language: users.language })
      .from(users)
      .where(eq(users.id, o.userId))
      .limit(1);
    language = user?.language ?? 'en';
  }
  const now = new Date(o.deps.clock.now());
  const [row] = await db
    .select()
    .from(banners)
    .where(
      and(
        inArray(banners.language, [language, 'all']),
        lte(banners.startsAt, now),
        gt(banners.endsAt, now),
      ),
    )
    .orderBy(desc(banners.startsAt), desc(banners.createdAt))
    .limit(1);
  return row ? toBanner(row) : null;
}

/** Checks an operator's banner; throws with a plain message the script prints. */
export function checkBannerInput(b: TBannerInput): void {
  if (!['en', 'zh', 'all'].includes(b.language)) throw new Error('--lang must be en, zh or all');
  if (!['info', 'warning'].includes(b.level)) throw new Error('--level must be info or warning');
  const text = b.text.trim();
  if (text === '' || text.length > BANNER_TEXT_MAX)
    throw new Error(`--text must be 1 to ${BANNER_TEXT_MAX} characters`);
  if (/[\u0000-\u001f\u007f]/.test(text)) throw new Error('--text must be one line of text');
  if (b.linkUrl !== null && !isSafeHttpUrl(b.linkUrl))
    throw new Error('--link must be an http:// or https:// URL');
  if (!Number.isFinite(b.startsAt) || !Number.isFinite(b.endsAt))
    throw new Error('--from and --to must be ISO dates, e.g. 2026-12-01T08:00:00Z');
  if (b.endsAt <= b.startsAt) throw new Error('--to must be after --from');
}

export async function addBanner(db: TDatabase, b: TBannerInput): Promise<TBannerRow> {
  checkBannerInput(b);
  const [row] = await db
    .insert(banners)
    .values({
      language: b.language,
      level: b.level,
      text: b.text.trim(),
      linkUrl: b.linkUrl,
      startsAt: new Date(b.startsAt),
      endsAt: new Date(b.endsAt),
    })
    .returning();
  if (!row) throw new Error('banner insert returned nothing');
  return row;
}

/** Banners not yet ended at `now`, earliest start first (with `all`: every banner). */
export async function listBanners(
  db: TDatabase,
  o: { now: number; all?: boolean },
): Promise<TBannerRow[]> {
  const query = db.select().from(banners);
  return (o.all ? query : query.where(gt(banners.endsAt, new Date(o.now)))).orderBy(
    banners.startsAt,
  );
}

/** Ends a banner now (an ended or future one stays in the table for the record); false for an unknown id. */
export async function endBanner(db: TDatabase, id: string, now: number): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
  const [row] = await db.select().from(banners).where(eq(banners.id, id)).limit(1);
  if (!row) return false;
  const end = new Date(Math.max(Math.min(row.endsAt.getTime(), now), row.startsAt.getTime()));
  await db.update(banners).set({ endsAt: end }).where(eq(banners.id, id));
  return true;
}
