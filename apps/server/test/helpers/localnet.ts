/** A real Hardhat node on a free port and the chain catalogue with `localnet` pointed at it (HTTP and WS). */
import {
  loadChains,
  startLocalnet,
  withUpstreams,
  type TChain,
  type TLocalnet,
} from '@rpc/gateway';
import { freePort } from './net';

export async function startTestLocalnet(): Promise<{ localnet: TLocalnet; chains: TChain[] }> {
  const localnet = await startLocalnet({ port: await freePort() });
  const chains = loadChains({}).map((c) =>
    c.id === 'localnet' ? withUpstreams(c, { full: [localnet.url] }, [localnet.wsUrl]) : c,
  );
  return { localnet, chains };
}
