import { describe, expect, it } from 'vitest';
import { LocalInvalidationChannel } from './local-invalidation';

describe('LocalInvalidationChannel', () => {
  it('resolves publish only after every listener finished, and survives a failing one', async () => {
    const channel = new LocalInvalidationChannel();
    const seen: string[] = [];
    channel.subscribe(async (id) => {
      await new Promise((r) => setTimeout(r, 20));
      seen.push(id);
    });
    channel.subscribe(() => {
      throw new Error('listener bug');
    });
    const off = channel.subscribe(async () => Promise.reject(new Error('async bug')));
    await channel.publish('k1');
    expect(seen).toEqual(['k1']);
    off();
    await channel.publish('k2');
    expect(seen).toEqual(['k1', 'k2']);
  });
});
