/**
 * Reads a request body with a size limit without cutting the connection: a body over the limit is read to its end
 * and dropped, so the client finishes sending and can read our 10005 answer (an early close makes it fail with EPIPE
 * before it sees any answer). Only a body past the drain limit is cut off.
 */
import type { Readable } from 'node:stream';

/** The body was over the limit but read to its end: answer 10005 and keep the connection. */
export const BODY_TOO_LARGE = Symbol('body too large');

/** The body was too large to drain: answer 10005 and close the connection. */
export class BodyTooLargeError extends Error {
  readonly code = 'BODY_TOO_LARGE';
  readonly statusCode = 413;
  constructor() {
    super('request body too large');
  }
}

export type TReadBodyLimits = {
  /** largest body accepted, in bytes */
  limit: number;
  /** largest body read to its end before the connection is closed instead, in bytes */
  drainLimit: number;
};

export function readLimitedBody(
  stream: Readable,
  contentLength: string | undefined,
  o: TReadBodyLimits,
): Promise<string | typeof BODY_TOO_LARGE> {
  // A declared length past the drain limit is refused before a byte is read.
  if (contentLength !== undefined && Number(contentLength) > o.drainLimit)
    return Promise.reject(new BodyTooLargeError());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
      fn();
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += bytes.length;
      if (received > o.drainLimit) {
        finish(() => reject(new BodyTooLargeError()));
        return;
      }
      // Past the limit the rest is only counted, never kept.
      if (received <= o.limit) chunks.push(bytes);
    };
    const onEnd = () =>
      finish(() =>
        resolve(
          received > o.limit ? BODY_TOO_LARGE : Buffer.concat(chunks, received).toString('utf8'),
        ),
      );
    const onError = (err: Error) => finish(() => reject(err));
    // A client that hangs up mid-body sends neither end nor always an error.
    const onClose = () => finish(() => reject(new Error('request closed before its body ended')));
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
    stream.resume();
  });
}
