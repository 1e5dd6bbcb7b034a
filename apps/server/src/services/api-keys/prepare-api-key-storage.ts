/**
 * Run by every process at start, after migrations and before anything reads a key: resolve API_KEY_SECRET, refuse
 * a secret other than the one this database's keys were sealed with, and seal keys still stored in plain text
 * (migration 0005 cannot: SQL does not have the secret). Idempotent: a second start finds nothing to seal.
 */
import { apiKeys, secretFingerprints, type TDatabase } from '@rpc/db';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { TEnv } from '../../env';
import {
  ApiKeySecretError,
  createApiKeyCipher,
  type TApiKeyCipher,
} from '../../lib/api-key-cipher';
import { resolveApiKeySecret } from '../../lib/api-key-secret';
import type { TLogger } from '../../lib/logger';

const PURPOSE = 'api_key_secret';
const SEAL_BATCH = 500;

type TOptions = {
  db: TDatabase;
  env: Pick<TEnv, 'API_KEY_SECRET' | 'DATABASE_URL' | 'DATA_DIR'>;
  logger: TLogger;
};

/** The cipher, checked against this database (createServer puts it in deps.apiKeyCipher). */
export async function prepareApiKeyStorage(o: TOptions): Promise<TApiKeyCipher> {
  const secret = await resolveApiKeySecret(o.env);
  if (secret.source === 'generated')
    o.logger.info({ file: secret.file }, 'API_KEY_SECRET not set: generated one into this file');
  const cipher = createApiKeyCipher(secret.secret);
  await checkApiKeySecret(o.db, cipher);
  const sealed = await sealLegacyApiKeys(o.db, cipher);
  if (sealed > 0) o.logger.info({ sealed }, 'plain-text API keys sealed');
  return cipher;
}

/**
 * One sealed key must open (the proof against the data itself); then the first process to start records the
 * secret's fingerprint and later ones must match it, which also catches two processes with different secrets
 * before either has sealed anything.
 */
export async function checkApiKeySecret(db: TDatabase, cipher: TApiKeyCipher): Promise<void> {
  const [sample] = await db
    .select({ id: apiKeys.id, keyCiphertext: apiKeys.keyCiphertext })
    .from(apiKeys)
    .where(isNotNull(apiKeys.keyCiphertext))
    .limit(1);
  if (sample?.keyCiphertext) cipher.open(sample.id, sample.keyCiphertext);
  await db
    .insert(secretFingerprints)
    .values({ purpose: PURPOSE, fingerprint: cipher.fingerprint })
    .onConflictDoNothing();
  const [stored] = await db
    .select({ fingerprint: secretFingerprints.fingerprint })
    .from(secretFingerprints)
    .where(eq(secretFingerprints.purpose, PURPOSE));
  if (stored?.fingerprint !== cipher.fingerprint)
    throw new ApiKeySecretError(
      'API_KEY_SECRET is not the secret this database’s API keys were encrypted with (fingerprint mismatch). ' +
        'Set the original secret in every process; keys cannot be read without it.',
    );
}

/** Seals every plain-text key (deleted ones too) and empties its plain text; answers how many this call sealed. */
export async function sealLegacyApiKeys(db: TDatabase, cipher: TApiKeyCipher): Promise<number> {
  let sealed = 0;
  for (;;) {
    const rows = await db
      .select({ id: apiKeys.id, legacyKey: apiKeys.legacyKey })
      .from(apiKeys)
      .where(isNotNull(apiKeys.legacyKey))
      .limit(SEAL_BATCH);
    if (rows.length === 0) break; // none left in plain text
    await db.transaction(async (tx) => {
      for (const r of rows) {
        const key = r.legacyKey!;
        // `legacy_key is not null` again: another instance starting alongside may have sealed it meanwhile.
        const done = await tx
          .update(apiKeys)
          .set({
            keyHash: cipher.hash(key),
            keyCiphertext: cipher.seal(r.id, key),
            legacyKey: null,
          })
          .where(and(eq(apiKeys.id, r.id), isNotNull(apiKeys.legacyKey)))
          .returning({ id: apiKeys.id });
        sealed += done.length;
      }
    });
  }
  return sealed;
}
