import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MINUTE_RETENTION_DAYS } from '@rpc/contract';
import { parseEnv } from './env';

describe('parseEnv', () => {
  it('applies defaults and derives public URLs from the ports', () => {
    const env = parseEnv({ PORT: '4000', GATEWAY_PORT: '4001' });
    expect(env).toMatchObject({
      PORT: 4000,
      GATEWAY_PORT: 4001,
      DATA_DIR: './data',
      PUBLIC_URL: 'http://localhost:4000',
      GATEWAY_PUBLIC_URL: 'http://localhost:4001',
      TRUST_PROXY: 0,
    });
  });
  it('reads TRUST_PROXY as a count of our proxies in front (true: one)', () => {
    const t = (v: string) => parseEnv({ TRUST_PROXY: v }).TRUST_PROXY;
    expect([t('false'), t('0'), t(''), t('true'), t('1'), t('2')]).toEqual([0, 0, 0, 1, 1, 2]);
    for (const bad of ['yes', '-1', '1.5', '100', 'true,false'])
      expect(() => parseEnv({ TRUST_PROXY: bad }), bad).toThrowError(/TRUST_PROXY/);
  });
  it('lets the gateway count its own proxies (GATEWAY_TRUST_PROXY), else takes TRUST_PROXY', () => {
    const g = (e: Record<string, string>) => parseEnv(e).GATEWAY_TRUST_PROXY;
    expect(g({})).toBe(0);
    expect(g({ TRUST_PROXY: 'true' })).toBe(1);
    expect(g({ TRUST_PROXY: '1', GATEWAY_TRUST_PROXY: '2' })).toBe(2);
    expect(g({ TRUST_PROXY: '2', GATEWAY_TRUST_PROXY: 'false' })).toBe(0);
    expect(parseEnv({ TRUST_PROXY: '1', GATEWAY_TRUST_PROXY: '2' }).TRUST_PROXY).toBe(1);
    expect(() => parseEnv({ GATEWAY_TRUST_PROXY: 'yes' })).toThrowError(/GATEWAY_TRUST_PROXY/);
  });
  it('treats empty strings as unset', () => {
    expect(parseEnv({ DATABASE_URL: '', PORT: '' }).DATABASE_URL).toBeUndefined();
  });
  it('fails with every bad variable named', () => {
    expect(() =>
      parseEnv({ PORT: 'abc', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' }),
    ).toThrowError(/PORT[\s\S]*DATABASE_URL[\s\S]*LOG_LEVEL/);
  });
});

describe('GATEWAY_WORKERS', () => {
  const scale = {
    DATABASE_URL: 'postgres://db/console',
    REDIS_URL: 'redis://cache:6379',
    API_KEY_SECRET: 'x'.repeat(32),
  };
  it('is 1 in the embedded default and the cores in scale mode, unless given', () => {
    expect(parseEnv({}).GATEWAY_WORKERS).toBe(1);
    expect(parseEnv({ DATABASE_URL: scale.DATABASE_URL }).GATEWAY_WORKERS).toBe(1);
    expect(parseEnv(scale).GATEWAY_WORKERS).toBe(availableParallelism());
    expect(parseEnv({ ...scale, GATEWAY_WORKERS: '3' }).GATEWAY_WORKERS).toBe(3);
    expect(parseEnv({ GATEWAY_WORKERS: '1' }).GATEWAY_WORKERS).toBe(1);
  });
  it('refuses more than one worker without PostgreSQL and Redis, and nonsense counts', () => {
    expect(() => parseEnv({ GATEWAY_WORKERS: '2' })).toThrowError(/GATEWAY_WORKERS.*REDIS_URL/);
    expect(() => parseEnv({ GATEWAY_WORKERS: '2', DATABASE_URL: scale.DATABASE_URL })).toThrowError(
      /GATEWAY_WORKERS/,
    );
    for (const bad of ['0', '-1', '1.5', 'many', '257'])
      expect(() => parseEnv({ ...scale, GATEWAY_WORKERS: bad })).toThrowError(/GATEWAY_WORKERS/);
  });
});

describe('THROTTLE_LIMIT_FACTOR', () => {
  it('defaults to 1 and refuses nonsense', () => {
    expect(parseEnv({}).THROTTLE_LIMIT_FACTOR).toBe(1);
    expect(parseEnv({ THROTTLE_LIMIT_FACTOR: '50' }).THROTTLE_LIMIT_FACTOR).toBe(50);
    expect(() => parseEnv({ THROTTLE_LIMIT_FACTOR: '0' })).toThrowError(/THROTTLE_LIMIT_FACTOR/);
  });
});

describe('USAGE_MINUTE_RETENTION_DAYS', () => {
  it('defaults to the contract’s retention and takes whole days from 1', () => {
    expect(parseEnv({}).USAGE_MINUTE_RETENTION_DAYS).toBe(DEFAULT_MINUTE_RETENTION_DAYS);
    expect(parseEnv({ USAGE_MINUTE_RETENTION_DAYS: '30' }).USAGE_MINUTE_RETENTION_DAYS).toBe(30);
    for (const bad of ['0', '1.5', 'forever'])
      expect(() => parseEnv({ USAGE_MINUTE_RETENTION_DAYS: bad })).toThrowError(
        /USAGE_MINUTE_RETENTION_DAYS/,
      );
  });
});
