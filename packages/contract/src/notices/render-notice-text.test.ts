/** The shared notice wording (SPEC §8): every template complete in both languages and safe with any expand. */
import { describe, expect, it } from 'vitest';
import { LANGUAGES, NOTICE_CUTOFF_MS, NOTICE_TYPES } from '../constants';
import { NOTICE_TEXTS } from './notice-texts';
import {
  SERVER_NOTICE_KEYS,
  SERVER_TEXT_TYPES,
  renderNoticeText,
  renderServerNoticeText,
  type TNoticeTextSource,
} from './render-notice-text';

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

  it.each(LANGUAGES)(
    '%s words every catalogued server-text notice, with known parameters',
    (lang) => {
      const texts = NOTICE_TEXTS[lang].serverTexts;
      expect(Object.keys(texts).sort()).toEqual([...SERVER_NOTICE_KEYS].sort());
      const used = Object.values(texts)
        .flatMap((text) => Object.values(text))
        .flatMap((template) => [...template.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]));
      expect(used.filter((name) => !PARAMS.includes(name!))).toEqual([]);
    },
  );

  it('shows a server-text notice naming a catalogued text in the reader language, else the stored text', () => {
    const expand = { textKey: 'team_late_credit_moved', usdAmount: '1.50', teamName: 'Core' };
    const late = notice({ type: 'normal_success', expand });
    expect(render(late)).toEqual({
      title: 'Late payment to a disbanded team',
      content:
        '$1.50 reached the team Core after it was disbanded (a deposit or card payment confirmed late) and is now in your personal wallet.',
    });
    expect(render(late, 'zh')).toEqual({
      title: '已解散团队的迟到款项',
      content: '团队 Core 解散后到账的 $1.50（稍后确认的充值或银行卡付款）已转入您的个人钱包。',
    });
    // What the server stores as the notice's own text is the same English wording.
    expect(
      renderServerNoticeText('team_late_credit_moved', expand, {
        lang: 'en',
        texts: NOTICE_TEXTS.en,
        formatDateTime,
      }),
    ).toEqual(render(late));
    const kept = { title: 'Server title', content: 'Server content' };
    expect(render({ ...late, createdAt: NOTICE_CUTOFF_MS - 1 }, 'zh')).toEqual(kept);
    for (const textKey of ['toString', 'no_such_text', 7]) {
      expect(render({ ...late, expand: { ...expand, textKey } }, 'zh')).toEqual(kept);
    }
    // Only server-text types take the key: a worded type keeps its own wording.
    expect(render(notice({ type: 'team_disband', expand }), 'zh').title).toBe('团队已解散');
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
