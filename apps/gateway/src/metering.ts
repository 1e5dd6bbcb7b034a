/** Request-unit (RU) pricing: one pure function over the versioned table in config/ru-table.json. */
import ruTableJson from '../config/ru-table.json' with { type: 'json' };

export type TRuTable = {
  version: string;
  sizeBased: { bytesPerStep: number; ruPerStep: number; minRu: number };
  archivePercent: number;
  logsSurcharge: {
    method: string;
    thresholdBytes: number;
    stepBytes: number;
    percentPerStep: number;
  };
  largeResponseSurcharge: { thresholdBytes: number; stepBytes: number; percentPerStep: number };
  methods: Record<string, number>;
  prefixes: Record<string, number>;
};

export const defaultRuTable: TRuTable = ruTableJson;

export type TOutcome = 'ok' | 'upstream_error' | 'rejected';

export type TRuInput = {
  method: string;
  /** Bytes of this call's response (for a batch item: its own serialised item). */
  responseBytes: number;
  /** Served by the archive group. */
  archive: boolean;
  /** The chain's multiplier, e.g. 1 or 1.5 (applied with 0.001 precision). */
  multiplier: number;
  outcome: TOutcome;
};

/** The table price of a method, or undefined when it is priced by response size. */
export function listedPrice(table: TRuTable, method: string): number | undefined {
  const exact = table.methods[method];
  if (exact !== undefined) return exact;
  for (const prefix in table.prefixes) if (method.startsWith(prefix)) return table.prefixes[prefix];
  return undefined;
}

/**
 * Quick reads (listed at most 15 RU: chain id, block number, gas price, balance, nonce, code, storage slot…): what
 * a node answers from memory or with one lookup. Only they are pipelined to an upstream (raw-http-client.ts), so a
 * slow call does not hold back the calls written with it. eth_feeHistory is priced like them but walks up to 1,024
 * blocks.
 */
export const QUICK_MAX_RU = 15;
const NOT_QUICK = new Set(['eth_feeHistory']);
export function isQuickRead(table: TRuTable, method: string): boolean {
  const price = table.methods[method];
  return price !== undefined && price <= QUICK_MAX_RU && !NOT_QUICK.has(method);
}

/** RUs to reserve before a call is answered (the listed price, or the size-based minimum). */
export function estimateRu(table: TRuTable, method: string): number {
  return listedPrice(table, method) ?? table.sizeBased.minRu;
}

function steps(bytes: number, threshold: number, step: number): number {
  return bytes > threshold ? Math.ceil((bytes - threshold) / step) : 0;
}

/**
 * The RUs charged for one call. Integer arithmetic throughout (20 × 1.3 must be 26, not 27), rounded up once.
 * Decisions (docs/decisions/gateway-design.md): only `ok` is charged; size-priced methods get no
 * large-response surcharge (their price already grows with size); eth_getLogs pays its own 200 KB rule instead
 * of the 1 MB rule, so the same bytes are never surcharged twice.
 */
export function computeRu(input: TRuInput, table: TRuTable = defaultRuTable): number {
  if (input.outcome !== 'ok') return 0;
  const bytes = Math.max(0, input.responseBytes);
  const listed = listedPrice(table, input.method);
  let base: number;
  let surchargePercent = 0;
  if (listed === undefined) {
    const s = table.sizeBased;
    base = Math.max(s.minRu, Math.ceil(bytes / s.bytesPerStep) * s.ruPerStep);
  } else {
    base = listed;
    const logs = table.logsSurcharge;
    const large = table.largeResponseSurcharge;
    surchargePercent =
      input.method === logs.method
        ? steps(bytes, logs.thresholdBytes, logs.stepBytes) * logs.percentPerStep
        : steps(bytes, large.thresholdBytes, large.stepBytes) * large.percentPerStep;
  }
  const archivePercent = input.archive ? table.archivePercent : 0;
  const multiplierMilli = Math.round(input.multiplier * 1000);
  // base × (100 + surcharge)% × (100 + archive)% × multiplier‰, all integers.
  const numerator = base * (100 + surchargePercent) * (100 + archivePercent) * multiplierMilli;
  const denominator = 100 * 100 * 1000;
  return Math.floor((numerator + denominator - 1) / denominator);
}
