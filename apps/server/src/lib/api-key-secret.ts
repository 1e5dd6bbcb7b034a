/**
 * Where API_KEY_SECRET comes from: the environment; in the embedded default, when unset, a file generated once in
 * DATA_DIR (mode 0600). Scale mode (DATABASE_URL) requires it explicitly: processes on other machines could not
 * share a generated file, and keys sealed under two secrets would be unreadable to half of the processes.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TEnv } from '../env';
import { ApiKeySecretError, MIN_API_KEY_SECRET_LENGTH } from './api-key-cipher';

export const API_KEY_SECRET_FILE = 'api-key-secret';

export type TApiKeySecret = {
  secret: string;
  /** env: API_KEY_SECRET; file: read from `file`; generated: written to `file` just now. */
  source: 'env' | 'file' | 'generated';
  file?: string;
};

export async function resolveApiKeySecret(
  env: Pick<TEnv, 'API_KEY_SECRET' | 'DATABASE_URL' | 'DATA_DIR'>,
): Promise<TApiKeySecret> {
  if (env.API_KEY_SECRET) return { secret: env.API_KEY_SECRET, source: 'env' };
  if (env.DATABASE_URL)
    throw new ApiKeySecretError(
      'API_KEY_SECRET is required when DATABASE_URL is set (scale mode): it encrypts API keys at rest and every ' +
        'console and gateway process must use the same one. Generate it once (openssl rand -base64 32), keep it ' +
        'with your other secrets and set it in every process (docs/scale-mode.md).',
    );
  const file = path.resolve(env.DATA_DIR, API_KEY_SECRET_FILE);
  const existing = await readSecretFile(file);
  if (existing !== undefined) return { secret: existing, source: 'file', file };
  await mkdir(path.dirname(file), { recursive: true });
  // Written whole under a temporary name, then linked into place: a process starting at the same moment either
  // wins the link or reads the winner's complete file, never a half-written one.
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  let created = false;
  try {
    await link(tmp, file);
    created = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(tmp).catch(() => {});
  }
  const secret = await readSecretFile(file);
  if (secret === undefined) throw new ApiKeySecretError(`${file} vanished while it was created`);
  return { secret, source: created ? 'generated' : 'file', file };
}

async function readSecretFile(file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const secret = text.trim();
  if (secret.length < MIN_API_KEY_SECRET_LENGTH)
    throw new ApiKeySecretError(
      `${file} must hold a secret of at least ${MIN_API_KEY_SECRET_LENGTH} characters (or set API_KEY_SECRET)`,
    );
  return secret;
}
