import type { TParams, TResult } from '@rpc/contract';
import { updateOwnKey, type TUpdateOwnKeyOptions } from './update-own-key';

/** Pause/resume and allowlists; each list given replaces that list, lists not given stay as they are. */
export async function updateApiKey(
  o: TUpdateOwnKeyOptions & TParams<'hub_updateApiKey'>,
): Promise<TResult<'hub_updateApiKey'>> {
  return (
    await updateOwnKey(o, (current) => ({
      ...(o.paused !== undefined ? { paused: o.paused } : {}),
      ...(o.allowlists
        ? {
            allowlists: {
              origins: dedupe(o.allowlists.origins ?? current.allowlists.origins),
              ips: dedupe(o.allowlists.ips ?? current.allowlists.ips),
              contracts: dedupe(o.allowlists.contracts ?? current.allowlists.contracts),
              methods: dedupe(o.allowlists.methods ?? current.allowlists.methods),
            },
          }
        : {}),
    }))
  ).after;
}

function dedupe(list: string[]): string[] {
  return [...new Set(list)];
}
