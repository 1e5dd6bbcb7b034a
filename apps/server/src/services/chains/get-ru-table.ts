import type { TResult } from '@rpc/contract';
import { defaultRuTable, type TRuTable } from '@rpc/gateway';

/**
 * The table the gateway bills with. Prefix prices (e.g. debug_trace*) are listed with a trailing `*`.
 * unlistedRuPer250Bytes is the size-based price normalised to 250 bytes (the table's own step is 250).
 */
export function getRuTable(table: TRuTable = defaultRuTable): TResult<'hub_getRuTable'> {
  const methods = [
    ...Object.entries(table.methods).map(([method, ru]) => ({ method, ru })),
    ...Object.entries(table.prefixes).map(([prefix, ru]) => ({ method: `${prefix}*`, ru })),
  ];
  return {
    version: table.version,
    methods,
    rules: {
      unlistedRuPer250Bytes: Math.ceil(
        (table.sizeBased.ruPerStep * 250) / table.sizeBased.bytesPerStep,
      ),
      archiveSurchargePercent: table.archivePercent,
      getLogsSurchargePercentPer200KbOver200Kb: table.logsSurcharge.percentPerStep,
      responseSurchargePercentPerMbOver1Mb: table.largeResponseSurcharge.percentPerStep,
    },
  };
}
