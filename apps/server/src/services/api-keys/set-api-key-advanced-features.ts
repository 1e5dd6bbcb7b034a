import type { TParams, TResult } from '@rpc/contract';
import type { TRpcContext } from '../../rpc/context';
import { raiseNotice } from '../notices/raise-notice';
import { updateOwnKey, type TUpdateOwnKeyOptions } from './update-own-key';

const FEATURE_NAMES: Record<TParams<'hub_setApiKeyAdvancedFeatures'>['feature'], string> = {
  archive_mode: 'Archive mode',
};

/** Turns a feature on or off; a real change raises apikey_feature_update for the acting user. */
export async function setApiKeyAdvancedFeatures(
  o: TUpdateOwnKeyOptions &
    Pick<TRpcContext, 'noticeBus'> &
    TParams<'hub_setApiKeyAdvancedFeatures'>,
): Promise<TResult<'hub_setApiKeyAdvancedFeatures'>> {
  const { before, after } = await updateOwnKey(o, () => ({ archiveMode: o.enabled }));
  if (before.archiveMode !== o.enabled) {
    const featureName = FEATURE_NAMES[o.feature];
    await raiseNotice({
      db: o.db,
      bus: o.noticeBus,
      at: o.clock.now(),
      type: 'apikey_feature_update',
      userId: o.auth.userId,
      accountId: o.auth.account.id,
      title: 'API key feature updated',
      content: `${featureName} was turned ${o.enabled ? 'on' : 'off'} for API key "${after.name}".`,
      expand: { apikeyName: after.name, featureName: o.feature, type: o.enabled ? 'on' : 'off' },
    });
  }
  return after;
}
