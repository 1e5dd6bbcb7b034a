/** Allowlist entries checked with the contract's own rules before they are sent (hub_updateApiKey). */
import type { TAllowlists } from '@rpc/contract';
import {
  ALLOWLIST_MAX_ENTRIES,
  ZContractRuleSchema,
  ZIpRuleSchema,
  ZMethodRuleSchema,
  ZOriginRuleSchema,
} from '@rpc/contract';

export type TAllowlistKind = keyof TAllowlists;
export const ALLOWLIST_KINDS = [
  'origins',
  'ips',
  'contracts',
  'methods',
] as const satisfies readonly TAllowlistKind[];

const SCHEMAS = {
  origins: ZOriginRuleSchema,
  ips: ZIpRuleSchema,
  contracts: ZContractRuleSchema,
  methods: ZMethodRuleSchema,
} as const;

export type TEntryCheck =
  { ok: true; value: string } | { ok: false; reason: 'invalid' | 'duplicate' | 'full' };

/** The normalised entry (trimmed, lower-cased where the rule says so), or why it cannot be added. */
export function checkAllowlistEntry(
  kind: TAllowlistKind,
  raw: string,
  existing: readonly string[],
): TEntryCheck {
  const parsed = SCHEMAS[kind].safeParse(raw);
  if (!parsed.success) return { ok: false, reason: 'invalid' };
  if (existing.includes(parsed.data)) return { ok: false, reason: 'duplicate' };
  if (existing.length >= ALLOWLIST_MAX_ENTRIES) return { ok: false, reason: 'full' };
  return { ok: true, value: parsed.data };
}

/** Splits pasted text (commas, spaces, new lines) into candidate entries. */
export function splitEntries(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}
