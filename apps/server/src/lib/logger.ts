/** pino with redaction: passwords, tokens and codes never reach the log, whatever object they ride in. */
import pino, { type BaseLogger, type Logger, type LoggerOptions } from 'pino';

/** What services log through: satisfied by a pino logger and by Fastify's request logger alike. */
export type TLogger = Pick<BaseLogger, 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'>;

// Params are never logged; this is the net for when someone logs an object that carries them anyway.
// One-time codes hide under `params.code` only: a bare `code` is also an error code we want to see.
const SECRET_KEYS = [
  'password',
  'confirmPassword',
  'oldPassword',
  'token',
  'authorization',
  'cookie',
];

export const REDACT_PATHS = [
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((k) => `*.${k}`),
  ...SECRET_KEYS.map((k) => `*.*.${k}`),
  'params.code',
  '*.params.code',
  'req.headers.authorization',
  'req.headers.cookie',
];

export function createLogger(opts: {
  level: LoggerOptions['level'];
  destination?: pino.DestinationStream;
}): Logger {
  const options: LoggerOptions = {
    level: opts.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service: 'console' },
  };
  return opts.destination ? pino(options, opts.destination) : pino(options);
}

const SECRET_QUERY = /([?&](?:code|token)=)[^&#]*/gi;
/** SPEC §2's public invoice page carries its code in the path: /invoice/{code}. */
const SECRET_PATH = /^(\/(?:zh\/)?invoice\/)[^/?#]+/i;

/** URLs like /email-confirm?code=… carry live codes; the request log keeps the path and masks those values. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PATH, '$1[redacted]').replace(SECRET_QUERY, '$1[redacted]');
}
