import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BODY_TOO_LARGE, BodyTooLargeError, readLimitedBody } from './read-body';

const limits = { limit: 10, drainLimit: 40 };
const chunks = (...parts: string[]) => Readable.from(parts.map((p) => Buffer.from(p)));

describe('readLimitedBody', () => {
  it('returns a body within the limit as UTF-8, also when a character is split across chunks', async () => {
    const euro = Buffer.from('€');
    const stream = Readable.from([Buffer.from('a'), euro.subarray(0, 1), euro.subarray(1)]);
    await expect(readLimitedBody(stream, undefined, limits)).resolves.toBe('a€');
  });

  it('reads a body over the limit to its end and answers BODY_TOO_LARGE', async () => {
    const stream = chunks('x'.repeat(8), 'x'.repeat(8), 'x'.repeat(8));
    await expect(readLimitedBody(stream, '24', limits)).resolves.toBe(BODY_TOO_LARGE);
    expect(stream.readableEnded).toBe(true);
  });

  it('gives up past the drain limit, and at once when the declared length is past it', async () => {
    await expect(
      readLimitedBody(chunks('x'.repeat(30), 'x'.repeat(30)), undefined, limits),
    ).rejects.toBeInstanceOf(BodyTooLargeError);
    const untouched = chunks('x');
    await expect(readLimitedBody(untouched, '41', limits)).rejects.toBeInstanceOf(
      BodyTooLargeError,
    );
    expect(untouched.readableEnded).toBe(false);
  });

  it('rejects when the stream fails or closes before its end', async () => {
    const failing = new Readable({ read() {} });
    const failed = readLimitedBody(failing, undefined, limits);
    failing.destroy(new Error('reset'));
    await expect(failed).rejects.toThrow('reset');

    const closing = new Readable({ read() {} });
    const closed = readLimitedBody(closing, undefined, limits);
    closing.destroy();
    await expect(closed).rejects.toThrow(/closed/);
  });
});
