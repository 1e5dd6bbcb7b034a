import { describe, expect, it } from 'vitest';
import { detectLanguage, normaliseLang } from './i18n';
import { langFromPath, localePath, stripLocale } from './locale-path';

describe('locale paths', () => {
  it.each([
    ['/', 'zh', '/zh'],
    ['/rpc/endpoint', 'zh', '/zh/rpc/endpoint'],
    ['/zh/rpc/endpoint', 'zh', '/zh/rpc/endpoint'],
    ['/zh/rpc/endpoint?a=1#b', 'en', '/rpc/endpoint?a=1#b'],
    ['/zh', 'en', '/'],
    ['/?code=1', 'zh', '/zh?code=1'],
    ['/zh?code=1', 'en', '/?code=1'],
    ['/zhx', 'en', '/zhx'],
    ['rpc', 'zh', '/zh/rpc'],
  ] as const)('localePath(%s, %s) = %s', (path, lang, expected) => {
    expect(localePath(path, lang)).toBe(expected);
  });

  it('reads the language from the prefix only', () => {
    expect(langFromPath('/zh')).toBe('zh');
    expect(langFromPath('/zh/rpc')).toBe('zh');
    expect(langFromPath('/zhx')).toBe('en');
    expect(langFromPath('/rpc/zh')).toBe('en');
    expect(stripLocale('/zh/rpc')).toBe('/rpc');
  });
});

describe('language detection (SPEC §4 app start)', () => {
  it.each([
    ['/zh/rpc', 'en', ['en-US'], { lang: 'zh', source: 'route' }],
    ['/rpc', 'zh', ['en-US'], { lang: 'zh', source: 'cookie' }],
    ['/rpc', 'en', ['zh-CN'], { lang: 'en', source: 'cookie' }],
    ['/rpc', undefined, ['fr-FR', 'zh-TW'], { lang: 'zh', source: 'browser' }],
    ['/rpc', 'xx', ['fr-FR'], { lang: 'en', source: 'default' }],
  ] as const)('%s, cookie %s, browser %j', (pathname, cookie, browser, expected) => {
    expect(detectLanguage({ pathname, cookie, browser })).toEqual(expected);
  });

  it('normalises language tags', () => {
    expect(normaliseLang('zh-Hans-CN')).toBe('zh');
    expect(normaliseLang('EN_gb')).toBe('en');
    expect(normaliseLang('de')).toBeUndefined();
  });
});
