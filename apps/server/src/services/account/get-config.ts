import type { TResult } from '@rpc/contract';
import type { TAppConfig } from '../../rpc/context';
import type { TOauthSettings } from '../sign-in/oauth-settings';

export function getConfig(o: {
  config: TAppConfig;
  oauth: TOauthSettings;
}): TResult<'hub_getConfig'> {
  return {
    version: o.config.version,
    gatewayHttpUrlTemplate: o.config.gatewayHttpUrlTemplate,
    gatewayWsUrlTemplate: o.config.gatewayWsUrlTemplate,
    registrationOpen: true,
    supportEmail: o.config.supportEmail,
    stripePublishableKey: o.config.stripePublishableKey,
    oauthProviders: o.oauth.providers.map(({ id, name }) => ({ id, name })),
    siweDomain: new URL(o.config.publicUrl).host,
  };
}
