/**
 * The bill predictor: the gateway's own integer arithmetic (listed price × archive surcharge × chain
 * multiplier, rounded up per call) over the user's expected monthly calls, and the smallest tier that serves
 * the peak rate. Size-based surcharges depend on response sizes the user cannot know in advance; left out.
 */

export type TRuRules = { archiveSurchargePercent: number };
export type TCostLine = { method: string; callsPerMonth: number };
export type TTierLimits = {
  level: string;
  name: string;
  order: number;
  reqPerSec: number;
  ruPerSec: number;
};

/** RUs of one call: ceil(base × (100 + archive%) / 100 × multiplier), all in integers as the gateway does. */
export function ruPerCall(
  baseRu: number,
  options: { archive: boolean; archiveSurchargePercent: number; multiplier?: number },
): number {
  const archivePercent = options.archive ? options.archiveSurchargePercent : 0;
  const multiplierMilli = Math.round((options.multiplier ?? 1) * 1000);
  const numerator = baseRu * 100 * (100 + archivePercent) * multiplierMilli;
  const denominator = 100 * 100 * 1000;
  return Math.floor((numerator + denominator - 1) / denominator);
}

export type TCostEstimate = {
  lines: { method: string; callsPerMonth: number; ruPerCall: number; ruPerMonth: number }[];
  totalCalls: number;
  totalRuPerMonth: number;
  /** RUs per call averaged over the mix, weighted by calls (0 without calls) */
  averageRuPerCall: number;
  /** RUs per second at the peak request rate, with the mix's average cost */
  peakRuPerSec: number;
  /** the lowest-order tier whose limits cover the peak, or null when none does */
  minimumTier: TTierLimits | null;
};

export function estimateCost(input: {
  lines: readonly TCostLine[];
  prices: ReadonlyMap<string, number>;
  archive: boolean;
  archiveSurchargePercent: number;
  multiplier?: number;
  peakReqPerSec: number;
  tiers: readonly TTierLimits[];
}): TCostEstimate {
  const lines = input.lines
    .filter((line) => input.prices.has(line.method))
    .map((line) => {
      const calls = Math.max(0, Math.floor(line.callsPerMonth || 0));
      const perCall = ruPerCall(input.prices.get(line.method)!, {
        archive: input.archive,
        archiveSurchargePercent: input.archiveSurchargePercent,
        ...(input.multiplier === undefined ? {} : { multiplier: input.multiplier }),
      });
      return {
        method: line.method,
        callsPerMonth: calls,
        ruPerCall: perCall,
        ruPerMonth: calls * perCall,
      };
    });
  const totalCalls = lines.reduce((sum, line) => sum + line.callsPerMonth, 0);
  const totalRuPerMonth = lines.reduce((sum, line) => sum + line.ruPerMonth, 0);
  const averageRuPerCall = totalCalls > 0 ? totalRuPerMonth / totalCalls : 0;
  const peak = Math.max(0, input.peakReqPerSec || 0);
  const peakRuPerSec = Math.ceil(peak * averageRuPerCall);
  const minimumTier =
    [...input.tiers]
      .sort((a, b) => a.order - b.order)
      .find((tier) => tier.reqPerSec >= peak && tier.ruPerSec >= peakRuPerSec) ?? null;
  return { lines, totalCalls, totalRuPerMonth, averageRuPerCall, peakRuPerSec, minimumTier };
}
