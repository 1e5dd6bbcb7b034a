import { readFileSync } from 'node:fs';
import { ERROR_CATALOGUE } from '@rpc/contract';
import { describe, expect, it } from 'vitest';

// docs/errors.md is written by hand (it explains when each code happens); this keeps it complete.
const doc = readFileSync(new URL('../../../../docs/errors.md', import.meta.url), 'utf8');

describe('docs/errors.md', () => {
  it.each(Object.entries(ERROR_CATALOGUE))('documents %s with both texts', (code, entry) => {
    const row = doc.split('\n').find((l) => l.startsWith(`| ${code} |`));
    expect(row).toBeDefined();
    expect(row).toContain(entry.en);
    expect(row).toContain(entry.zh);
  });
});
