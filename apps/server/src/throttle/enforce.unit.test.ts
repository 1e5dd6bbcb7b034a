import { describe, expect, it } from 'vitest';
import { createThrottle } from './enforce';
import { createMemoryThrottleStore } from './memory-store';
import { DEFAULT_THROTTLE_RULES, type TThrottleRules } from './rules';

function setup() {
  let now = 1_000_000;
  const clock = { now: () => now };
  const rules: TThrottleRules = {
    ...DEFAULT_THROTTLE_RULES,
    login: { perEmail: { limit: 2, windowMs: 1000 }, perIp: { limit: 3, windowMs: 5000 } },
  };
  const throttle = createThrottle(createMemoryThrottleStore(clock), rules);
  const attempt = (email: string | null, ip: string) =>
    throttle.enforce({ action: 'login', email, ip, limitType: 'type1' });
  return { attempt, advance: (ms: number) => void (now += ms), now: () => now };
}

describe('throttle (memory store)', () => {
  it('stops the third attempt for one e-mail and says when the window ends', async () => {
    const t = setup();
    await t.attempt('a@x.com', '1.1.1.1');
    await t.attempt('a@x.com', '1.1.1.2');
    await expect(t.attempt('a@x.com', '1.1.1.3')).rejects.toMatchObject({
      code: 10429,
      limitType: 'type1',
      attemptsExpireAt: t.now() + 1000,
    });
    t.advance(1000);
    await expect(t.attempt('a@x.com', '1.1.1.4')).resolves.toBeUndefined();
  });

  it('stops the fourth attempt from one IP across e-mails, reporting the later reset', async () => {
    const t = setup();
    for (const e of ['a@x.com', 'b@x.com', 'c@x.com']) await t.attempt(e, '9.9.9.9');
    await expect(t.attempt('d@x.com', '9.9.9.9')).rejects.toMatchObject({
      attemptsExpireAt: t.now() + 5000,
    });
    await expect(t.attempt('d@x.com', '8.8.8.8')).resolves.toBeUndefined();
  });
});
