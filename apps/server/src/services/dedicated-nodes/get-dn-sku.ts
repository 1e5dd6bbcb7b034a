/** hub_getDnSku: the catalogue, with which chains this server's driver can run now. */
import { DN_GRACE_DAYS, DN_WILL_EXPIRE_DAYS, type TDnSku } from '@rpc/contract';
import type { TDnDeps } from './wallet-order';

export function getDnSku(deps: Pick<TDnDeps, 'dnSkus' | 'dnDriver'>): TDnSku {
  const c = deps.dnSkus;
  return {
    version: c.version,
    currency: c.currency,
    chains: c.chains.map((chain) => ({
      ...chain,
      isAvailable: deps.dnDriver.canProvision(chain.id),
    })),
    regions: c.regions,
    periods: c.periods,
    willExpireDays: DN_WILL_EXPIRE_DAYS,
    graceDays: DN_GRACE_DAYS,
  };
}
