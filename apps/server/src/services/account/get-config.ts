import type { TResult } from '@rpc/contract';
import type { TAppConfig } from '../../rpc/context';

export function getConfig(o: { config: TAppConfig }): TResult<'hub_getConfig'> {
  return {
    version: o.config.version,
    gatewayHttpUrlTemplate: o.config.gatewayHttpUrlTemplate,
    gatewayWsUrlTemplate: o.config.gatewayWsUrlTemplate,
    registrationOpen: true,
    supportEmail: o.config.supportEmail,
    stripePublishableKey: o.config.stripePublishableKey,
  };
}
