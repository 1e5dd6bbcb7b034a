/**
 * Both languages complete (STYLE habit 8): fails when any key exists in one language only. A namespace's texts are
 * its JSON file and what it takes from the contract (lib/i18n.ts contractTextLoaders: the notice wording).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { contractTextLoaders } from './i18n';

const LOCALES_DIR = join(import.meta.dirname, '..', 'locales');
const LANGS = ['en', 'zh'] as const;

/** Every leaf key as a dotted path; plural forms (_one, _other, ...) count as their base key. */
function flattenKeys(value: unknown, prefix = ''): string[] {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) =>
      flattenKeys(child, prefix ? `${prefix}.${key}` : key),
    );
  }
  return [prefix.replace(/_(zero|one|two|few|many|other)$/, '')];
}

function namespaces(lang: string): string[] {
  return readdirSync(join(LOCALES_DIR, lang))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

/** The contract's texts by namespace and language, loaded as the app loads them. */
const contractTexts = new Map<string, unknown>();

beforeAll(async () => {
  for (const [ns, byLang] of Object.entries(contractTextLoaders)) {
    for (const lang of LANGS) contractTexts.set(`${lang}/${ns}`, await byLang[lang]());
  }
});

function readJson(lang: string, ns: string): unknown {
  return JSON.parse(readFileSync(join(LOCALES_DIR, lang, `${ns}.json`), 'utf8'));
}

function keysOf(lang: string, ns: string): Set<string> {
  return new Set([
    ...flattenKeys(readJson(lang, ns)),
    ...flattenKeys(contractTexts.get(`${lang}/${ns}`) ?? {}),
  ]);
}

function emptyValues(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return value.trim() ? [] : [prefix];
  if (value && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
      emptyValues(v, prefix ? `${prefix}.${k}` : k),
    );
  }
  return [`${prefix} (not a string)`];
}

describe('locale parity', () => {
  it('has the same namespace files in every language', () => {
    expect(namespaces('zh')).toEqual(namespaces('en'));
  });

  const all = [...new Set(LANGS.flatMap(namespaces))];
  it.each(all)('namespace %s has the same keys in English and Chinese', (ns) => {
    const [en, zh] = LANGS.map((lang) => {
      try {
        return keysOf(lang, ns);
      } catch {
        return new Set<string>();
      }
    }) as [Set<string>, Set<string>];
    const onlyEn = [...en].filter((k) => !zh.has(k)).map((k) => `en only: ${ns}:${k}`);
    const onlyZh = [...zh].filter((k) => !en.has(k)).map((k) => `zh only: ${ns}:${k}`);
    expect([...onlyEn, ...onlyZh]).toEqual([]);
  });

  it.each(all.flatMap((ns) => LANGS.map((lang) => [lang, ns] as const)))(
    '%s/%s has no empty texts',
    (lang, ns) => {
      let json: unknown = {};
      try {
        json = readJson(lang, ns);
      } catch {
        // a missing file is reported by the parity test above
      }
      expect(emptyValues(json)).toEqual([]);
      expect(emptyValues(contractTexts.get(`${lang}/${ns}`) ?? {})).toEqual([]);
    },
  );

  it.each(
    Object.keys(contractTextLoaders).flatMap((ns) => LANGS.map((lang) => [lang, ns] as const)),
  )(
    "%s/%s: the contract's texts are there and share no key with the namespace's file",
    (lang, ns) => {
      const fromContract = flattenKeys(contractTexts.get(`${lang}/${ns}`) ?? {});
      expect(fromContract.length).toBeGreaterThan(0);
      const fromFile = new Set(flattenKeys(readJson(lang, ns)));
      expect(fromContract.filter((key) => fromFile.has(key))).toEqual([]);
    },
  );

  it('flattenKeys treats plural forms as one key and walks nesting', () => {
    expect(flattenKeys({ a: { b_one: 'x', b_other: 'y' }, c: 'z' }).sort()).toEqual([
      'a.b',
      'a.b',
      'c',
    ]);
  });
});
