/**
 * The invoice PDF's fonts: Noto Sans SC (OFL, @fontsource/noto-sans-sc), whose simplified-Chinese subset also holds
 * Latin-1, and Noto Sans (OFL, @fontsource/noto-sans) for the other European letters a buyer's name may hold
 * (Łukasiewicz, Dvořák, Şahin, Cyrillic, Greek, Vietnamese), which Noto Sans SC lacks. Read once per process and
 * kept. The WOFF 1 files are unpacked to plain OpenType with node's zlib: fontkit's own inflate takes ~4 s per
 * document on the CJK file, and its WOFF 2 subsetting copies the transformed glyf table unchanged, which makes 6 MB
 * PDFs of broken outlines (docs/decisions/invoices.md "Fonts").
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';

export type TInvoiceFont = { name: string; data: Buffer; font: TFontkitFont };
export type TInvoiceFonts = {
  regular: TInvoiceFont;
  bold: TInvoiceFont;
  fallbacks: TInvoiceFont[];
};

const FILES = {
  regular: 'noto-sans-sc/files/noto-sans-sc-chinese-simplified-400',
  bold: 'noto-sans-sc/files/noto-sans-sc-chinese-simplified-700',
  fallbacks: [
    'noto-sans/files/noto-sans-latin-400',
    'noto-sans/files/noto-sans-latin-ext-400',
    'noto-sans/files/noto-sans-cyrillic-400',
    'noto-sans/files/noto-sans-cyrillic-ext-400',
    'noto-sans/files/noto-sans-greek-400',
    'noto-sans/files/noto-sans-vietnamese-400',
  ],
} as const;

const requireHere = createRequire(import.meta.url);
/** The part of fontkit (pdfkit's own font engine, untyped) used here: which characters a font has. */
type TFontkitFont = { hasGlyphForCodePoint: (codePoint: number) => boolean };
const fontkit = requireHere('fontkit') as { create: (data: Buffer) => TFontkitFont };
let loading: Promise<TInvoiceFonts> | undefined;

/** The fonts, loaded on first use; a failed load is retried by the next call. */
export function loadInvoiceFonts(): Promise<TInvoiceFonts> {
  loading ??= readFonts().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

async function readFonts(): Promise<TInvoiceFonts> {
  const [regular, bold, ...fallbacks] = await Promise.all(
    [FILES.regular, FILES.bold, ...FILES.fallbacks].map(readFont),
  );
  return { regular: regular!, bold: bold!, fallbacks };
}

async function readFont(file: string): Promise<TInvoiceFont> {
  const data = woffToSfnt(await readFile(requireHere.resolve(`@fontsource/${file}-normal.woff`)));
  return { name: file.slice(file.lastIndexOf('/') + 1), data, font: fontkit.create(data) };
}

const WOFF_SIGNATURE = 0x774f4646; // 'wOFF'

/** WOFF 1 → the OpenType file it wraps (W3C WOFF 1.0 §3–5): each table inflated, the sfnt directory rebuilt. */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.length < 44 || woff.readUInt32BE(0) !== WOFF_SIGNATURE)
    throw new Error('not a WOFF file');
  const flavor = woff.readUInt32BE(4);
  const numTables = woff.readUInt16BE(12);
  const tables = Array.from({ length: numTables }, (_, i) => {
    const entry = 44 + i * 20;
    const offset = woff.readUInt32BE(entry + 4);
    const compLength = woff.readUInt32BE(entry + 8);
    const origLength = woff.readUInt32BE(entry + 12);
    const stored = woff.subarray(offset, offset + compLength);
    const data = compLength < origLength ? inflateSync(stored) : stored;
    if (data.length !== origLength) throw new Error('WOFF table of the wrong length');
    return { tag: woff.readUInt32BE(entry), checksum: woff.readUInt32BE(entry + 16), data };
  });

  let searchRange = 1;
  let entrySelector = 0;
  while (searchRange * 2 <= numTables) {
    searchRange *= 2;
    entrySelector += 1;
  }
  const padded = (n: number) => (n + 3) & ~3;
  const headerLength = 12 + 16 * numTables;
  const out = Buffer.alloc(tables.reduce((sum, t) => sum + padded(t.data.length), headerLength));
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(searchRange * 16, 6);
  out.writeUInt16BE(entrySelector, 8);
  out.writeUInt16BE(numTables * 16 - searchRange * 16, 10);
  let offset = headerLength;
  tables.forEach((t, i) => {
    const record = 12 + i * 16;
    out.writeUInt32BE(t.tag, record);
    out.writeUInt32BE(t.checksum, record + 4);
    out.writeUInt32BE(offset, record + 8);
    out.writeUInt32BE(t.data.length, record + 12);
    t.data.copy(out, offset);
    offset += padded(t.data.length);
  });
  return out;
}

/** Splits text into runs each drawn with the first font that has its characters (the main font if none has). */
export function splitByFont(
  text: string,
  main: TInvoiceFont,
  fallbacks: readonly TInvoiceFont[],
): Array<{ font: TInvoiceFont; text: string }> {
  const runs: Array<{ font: TInvoiceFont; text: string }> = [];
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    const font =
      main.font.hasGlyphForCodePoint(cp) || /\s/.test(char)
        ? main
        : (fallbacks.find((f) => f.font.hasGlyphForCodePoint(cp)) ?? main);
    const last = runs.at(-1);
    if (last && last.font === font) last.text += char;
    else runs.push({ font, text: char });
  }
  return runs;
}
