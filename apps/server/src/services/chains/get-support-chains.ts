import type { TResult } from '@rpc/contract';
import { listChains } from '@rpc/gateway';
import type { TRpcContext } from '../../rpc/context';

/**
 * The gateway's catalogue with each chain's endpoint templates: hub_getConfig's templates with {chain} filled
 * in, so both methods always agree; `{key}` stays for the client to fill.
 */
export function getSupportChains(
  o: Pick<TRpcContext, 'chains' | 'config'>,
): TResult<'hub_getSupportChains'> {
  return {
    list: listChains(o.chains).map((c) => ({
      id: c.id,
      name: c.name,
      network: c.network,
      chainId: c.chainId,
      icon: c.icon,
      available: c.available,
      features: c.features,
      ruMultiplier: c.ruMultiplier,
      httpUrlTemplate: o.config.gatewayHttpUrlTemplate.replaceAll('{chain}', c.id),
      wsUrlTemplate: o.config.gatewayWsUrlTemplate.replaceAll('{chain}', c.id),
    })),
  };
}
