/** Rate-limit tiers as data (config/tiers.json): one source of truth for the gateway and the console. */
import tiersJson from '../config/tiers.json' with { type: 'json' };
import type { TTierLimits } from './types';

export type TTier = TTierLimits & { id: string; name: string };

export const tiers: TTier[] = Object.entries(tiersJson.tiers).map(([id, t]) => ({ id, ...t }));

export function getTier(id: string): TTier | undefined {
  return tiers.find((t) => t.id === id);
}

export const defaultTier: TTier = getTier(tiersJson.default) ?? (tiers[0] as TTier);

/** Calls per batch for a tier: never more than one second of requests, which is all its bucket can hold. */
export function maxBatchOf(t: TTierLimits, gatewayMax: number): number {
  return Math.max(1, Math.min(gatewayMax, t.maxBatch ?? gatewayMax, Math.floor(t.reqPerSec)));
}

export const socketsPerKeyOf = (t: TTierLimits): number => t.socketsPerKey ?? 10;
export const subscriptionsPerSocketOf = (t: TTierLimits): number => t.subscriptionsPerSocket ?? 10;
