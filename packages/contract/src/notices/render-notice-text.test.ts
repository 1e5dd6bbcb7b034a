/** The shared notice wording (SPEC §8): every template complete in both languages and safe with any expand. */
import { describe, expect, it } from 'vitest';
import { LANGUAGES, NOTICE_CUTOFF_MS, NOTICE_TYPES } from '../constants';
import { NOTICE_TEXTS } from './notice-texts';
import { SERVER_TEXT_TYPES, renderNoticeText, type TNoticeTextSource } from './render-notice-text';

const formatDateTime = (ms: number) => `<${ms}>`;

function notice(over: Partial<TNoticeTextSource>): TNoticeTextSource {
  return {
    type: 'deposit',
    title: 'Server title',
    content: 'Server content',
    createdAt: NOTICE_CUTOFF_MS,
    expand: {},
    ...over,
  };
}

function render(n: TNoticeTextSource, lang: (typeof LANGUAGES)[number] = 'en') {
  return renderNoticeText(n, { lang, texts: NOTICE_TEXTS[lang], formatDateTime });
}

const PARAMS = [
  'coinAmount',
  'coin',
  'usdAmount',
  'amount',
  'skuName',
  'time',
  'count',
  'name',
  'featureName',
  'state',
  'apikeyName',
  'userName',
  'teamName',
  'exportKind',
];

describe('renderNoticeText (SPEC §8)', () => {
  it.each(LANGUAGES)(
    '%s has wording for every type but the server-text ones, with known parameters',
    (lang) => {
      const types = Object.keys(NOTICE_TEXTS[lang].types).sort();
      expect(types).toEqual(NOTICE_TYPES.filter((t) => !SERVER_TEXT_TYPES.has(t)).sort());
      const used = Object.values(NOTICE_TEXTS[lang].types)
        .flatMap((text) => Object.values(text))
        .flatMap((template) => [...template.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]));
      expect(used.filter((name) => !PARAMS.includes(name!))).toEqual([]);
    },
  );

  it('keeps the server text before the cutoff, for the server-text types and for an unknown type', () => {
    const kept = { title: 'Server title', content: 'Server content' };
    expect(render(notice({ createdAt: NOTICE_CUTOFF_MS - 1 }))).toEqual(kept);
    expect(render(notice({ type: 'activity_gift' }), 'zh')).toEqual(kept);
    expect(render(notice({ type: 'toString' }))).toEqual(kept);
    expect(render(notice({}), 'zh').title).toBe('充值已到账');
  });

  it('fills missing or mistyped values with a dash and never reads a value as a template', () => {
    const hostile = render(
      notice({
        expand: { coinAmount: { a: 1 }, coin: "$& $' {{usdAmount}} <b>", usdAmount: [1] },
      }),
    );
    expect(hostile.content).toBe(
      "Your deposit of - $& $' {{usdAmount}} <b> (about $-) has arrived in your wallet.",
    );
    const feature = render(
      notice({
        type: 'apikey_feature_update',
        expand: { featureName: 'constructor', type: 'on', apikeyName: 7 },
      }),
    );
    expect(feature.content).toBe('constructor was turned on for API key -.');
    expect(render(notice({ type: 'expired', expand: { timeStamp: 5 } })).content).toBe(
      'Your package - expired on <5>.',
    );
    expect(
      render(notice({ type: 'expired', expand: null as unknown as Record<string, unknown> }))
        .content,
    ).toBe('Your package - expired on -.');
  });
});
