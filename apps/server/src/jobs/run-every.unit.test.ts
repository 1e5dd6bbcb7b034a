import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TDeps } from '../rpc/context';
import { runEvery } from './run-every';

function logger() {
  const errors: { obj: unknown; msg: string }[] = [];
  return {
    errors,
    log: {
      error: (obj: unknown, msg: string) => errors.push({ obj, msg }),
    } as unknown as TDeps['logger'],
  };
}

describe('runEvery', () => {
  afterEach(() => vi.useRealTimers());

  it('runs at once, then each tick, never two passes at once; stop waits for the pass under way', async () => {
    vi.useFakeTimers();
    const { log } = logger();
    let started = 0;
    let release: () => void = () => {};
    const stop = runEvery(log, 'job', 1000, () => {
      started += 1;
      return new Promise<void>((r) => (release = r));
    });
    expect(started).toBe(1);
    await vi.advanceTimersByTimeAsync(3000);
    expect(started).toBe(1); // the first pass is still under way
    release();
    await vi.advanceTimersByTimeAsync(1000);
    expect(started).toBe(2);
    let stopped = false;
    const stopping = stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    release();
    await stopping;
    await vi.advanceTimersByTimeAsync(5000);
    expect(started).toBe(2); // no pass after stop
  });

  it('logs a failed pass under its name and tries again at the next tick', async () => {
    vi.useFakeTimers();
    const { log, errors } = logger();
    let calls = 0;
    const stop = runEvery(log, 'card order sweep', 1000, async () => {
      calls += 1;
      if (calls === 1) throw new Error('boom');
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.msg).toBe('card order sweep failed');
    expect((errors[0]!.obj as { err: Error }).err.message).toBe('boom');
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toBe(2);
    expect(errors).toHaveLength(1);
    await stop();
  });
});
