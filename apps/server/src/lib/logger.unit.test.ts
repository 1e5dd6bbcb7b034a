import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, redactUrl } from './logger';

describe('redactUrl', () => {
  it.each([
    ['/email-confirm?code=abc', '/email-confirm?code=[redacted]'],
    ['/x?a=1&token=t0k&b=2', '/x?a=1&token=[redacted]&b=2'],
    ['/rpc/endpoint', '/rpc/endpoint'],
    ['/invoice/AbC_-123', '/invoice/[redacted]'],
    ['/zh/invoice/AbC?x=1', '/zh/invoice/[redacted]?x=1'],
    ['/invoice-pdf?code=AbC&lang=zh', '/invoice-pdf?code=[redacted]&lang=zh'],
    ['/rpc/billings/invoice', '/rpc/billings/invoice'],
  ])('%s', (url, expected) => expect(redactUrl(url)).toBe(expected));
});

describe('createLogger', () => {
  it('redacts secrets in logged objects but keeps error codes', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _e, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const log = createLogger({ level: 'info', destination: sink });
    log.info(
      {
        password: 'p1',
        body: { token: 't1', params: { code: 'c1' } },
        params: { code: 'c2' },
        errorCode: 10202,
      },
      'x',
    );
    const line = lines.join('');
    for (const secret of ['p1', 't1', 'c1', 'c2']) expect(line).not.toContain(`"${secret}"`);
    expect(line).toContain('"errorCode":10202');
  });
});
