import { describe, expect, it } from 'vitest';
import { createThrottle } from './enforce';
import { createMemoryThrottleStore } from './memory-store';
import { DEFAULT_THROTTLE_RULES, scaleThrottleRules, type TThrottleRules } from './rules';

function setup() {
  let now = 1_000_000;
  const clock = { now: () => now };
  const rules: TThrottleRules = {
    ...DEFAULT_THROTTLE_RULES,
    login: {
      perEmailAndIp: { limit: 2, windowMs: 1000 },
      perIp: { limit: 3, windowMs: 5000 },
      perEmail: { limit: 5, windowMs: 10_000 },
    },
  };
  const throttle = createThrottle(createMemoryThrottleStore(clock), rules);
  const attempt = (email: string | null, ip: string, isKnownPlace?: () => Promise<boolean>) =>
    throttle.enforce({
      action: 'login',
      email,
      ip,
      limitType: 'type1',
      ...(isKnownPlace ? { isKnownPlace } : {}),
    });
  return { throttle, attempt, advance: (ms: number) => void (now += ms), now: () => now };
}

describe('throttle (memory store)', () => {
  it('stops the third attempt for one e-mail from one IP and says when the window ends', async () => {
    const t = setup();
    await t.attempt('a@x.com', '1.1.1.1');
    await t.attempt('a@x.com', '1.1.1.1');
    await expect(t.attempt('a@x.com', '1.1.1.1')).rejects.toMatchObject({
      code: 10429,
      limitType: 'type1',
      attemptsExpireAt: t.now() + 1000,
    });
    // The pair window is over; the IP's (3 / 5 s) is full too, so wait for both.
    t.advance(5000);
    await expect(t.attempt('a@x.com', '1.1.1.1')).resolves.toBeUndefined();
  });

  it('does not hold the same e-mail at another IP while the pair counter of the first is full', async () => {
    const t = setup();
    for (let i = 0; i < 2; i++) await t.attempt('a@x.com', '1.1.1.1');
    await expect(t.attempt('a@x.com', '1.1.1.1')).rejects.toMatchObject({ code: 10429 });
    await expect(t.attempt('a@x.com', '2.2.2.2')).resolves.toBeUndefined();
  });

  it('stops the fourth attempt from one IP across e-mails, reporting the later reset', async () => {
    const t = setup();
    for (const e of ['a@x.com', 'b@x.com', 'c@x.com']) await t.attempt(e, '9.9.9.9');
    await expect(t.attempt('d@x.com', '9.9.9.9')).rejects.toMatchObject({
      attemptsExpireAt: t.now() + 5000,
    });
    await expect(t.attempt('d@x.com', '8.8.8.8')).resolves.toBeUndefined();
  });

  it('caps one e-mail across IPs, except where isKnownPlace says the owner signed in before', async () => {
    const t = setup();
    for (const ip of ['1.0.0.1', '1.0.0.2', '1.0.0.3', '1.0.0.4', '1.0.0.5'])
      await t.attempt('a@x.com', ip);
    await expect(t.attempt('a@x.com', '1.0.0.6')).rejects.toMatchObject({
      code: 10429,
      attemptsExpireAt: t.now() + 10_000,
    });
    await expect(t.attempt('a@x.com', '1.0.0.7', async () => false)).rejects.toMatchObject({
      code: 10429,
    });
    await expect(t.attempt('a@x.com', '1.0.0.8', async () => true)).resolves.toBeUndefined();
  });

  it('never lets isKnownPlace lift a per-IP or per-pair limit', async () => {
    const t = setup();
    let asked = 0;
    const known = async () => {
      asked += 1;
      return true;
    };
    await t.attempt('a@x.com', '1.1.1.1', known);
    await t.attempt('a@x.com', '1.1.1.1', known);
    await expect(t.attempt('a@x.com', '1.1.1.1', known)).rejects.toMatchObject({ code: 10429 });
    expect(asked).toBe(0);
  });

  it('resetEmail starts the per-e-mail cap afresh', async () => {
    const t = setup();
    for (const ip of ['1.0.0.1', '1.0.0.2', '1.0.0.3', '1.0.0.4', '1.0.0.5'])
      await t.attempt('a@x.com', ip);
    await expect(t.attempt('a@x.com', '1.0.0.6')).rejects.toMatchObject({ code: 10429 });
    await t.throttle.resetEmail({ action: 'login', email: 'a@x.com' });
    await expect(t.attempt('a@x.com', '1.0.0.7')).resolves.toBeUndefined();
  });

  it('counts an action without e-mail rules per IP only', async () => {
    let now = 0;
    const throttle = createThrottle(createMemoryThrottleStore({ now: () => now }), {
      ...DEFAULT_THROTTLE_RULES,
      oneTimeCode: { perIp: { limit: 1, windowMs: 1000 } },
    });
    const call = (ip: string) =>
      throttle.enforce({ action: 'oneTimeCode', email: null, ip, limitType: 'type3' });
    await call('1.1.1.1');
    await expect(call('1.1.1.1')).rejects.toMatchObject({ code: 10429, limitType: 'type3' });
    await expect(call('2.2.2.2')).resolves.toBeUndefined();
    now += 1000;
    await expect(call('1.1.1.1')).resolves.toBeUndefined();
  });
});

describe('scaleThrottleRules', () => {
  it('multiplies every limit of every counter and keeps the windows', () => {
    const scaled = scaleThrottleRules(DEFAULT_THROTTLE_RULES, 10);
    expect(scaled.login).toEqual({
      perIp: { limit: 300, windowMs: DEFAULT_THROTTLE_RULES.login.perIp.windowMs },
      perEmailAndIp: { limit: 100, windowMs: DEFAULT_THROTTLE_RULES.login.perEmailAndIp!.windowMs },
      perEmail: { limit: 1000, windowMs: DEFAULT_THROTTLE_RULES.login.perEmail!.windowMs },
    });
    expect(scaled.oneTimeCode).toEqual({ perIp: { limit: 300, windowMs: 15 * 60_000 } });
    expect(scaleThrottleRules(DEFAULT_THROTTLE_RULES, 1)).toBe(DEFAULT_THROTTLE_RULES);
  });
});
