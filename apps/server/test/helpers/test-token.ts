/**
 * Contracts on the local Hardhat node (a real ERC-20, a test EIP-1271 wallet): test/fixtures/*.sol compiled with
 * solc-js (the npm `solc` package, a WebAssembly build: no download at test time) and deployed from Hardhat's first
 * test account.
 */
import { readFileSync } from 'node:fs';
import {
  createWalletClient,
  createPublicClient,
  http,
  parseAbi,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { hardhat } from 'viem/chains';
// @ts-expect-error solc ships no types
import solc from 'solc';

/** Hardhat's published test accounts #0 and #1 (public keys for a public test chain). */
export const HARDHAT_KEYS: Hex[] = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
];

export const TEST_USD_ABI = parseAbi([
  'constructor(uint256 supply)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

const compiled = new Map<string, Hex>();

/** Creation bytecode of `contract` in test/fixtures/`file`, compiled once per process. */
export function fixtureBytecode(file: string, contract: string): Hex {
  const key = `${file}:${contract}`;
  const known = compiled.get(key);
  if (known) return known;
  const source = readFileSync(new URL(`../fixtures/${file}`, import.meta.url), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { [file]: { content: source } },
    settings: { outputSelection: { '*': { '*': ['evm.bytecode.object'] } } },
  };
  const output = JSON.parse(
    (solc as { compile: (s: string) => string }).compile(JSON.stringify(input)),
  ) as {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    contracts: Record<string, Record<string, { evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const bytecode: Hex = `0x${output.contracts[file]![contract]!.evm.bytecode.object}`;
  compiled.set(key, bytecode);
  return bytecode;
}

export function testUsdBytecode(): Hex {
  return fixtureBytecode('test-usd.sol', 'TestUsd');
}

/** Clients on the node for test account `i`, plus raw JSON-RPC for Hardhat's evm_* methods. */
export function chainClients(url: string, i = 0) {
  const account = privateKeyToAccount(HARDHAT_KEYS[i]!);
  const transport = http(url);
  const wallet = createWalletClient({ account, chain: hardhat, transport });
  const pub = createPublicClient({ chain: hardhat, transport, cacheTime: 0 });
  const rpc = async (method: string, params: unknown[] = []): Promise<unknown> => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = (await res.json()) as { result?: unknown; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  };
  return {
    account,
    wallet,
    pub,
    rpc,
    mine: (n = 1) => rpc('hardhat_mine', [`0x${n.toString(16)}`]),
  };
}

/** Deploys TestUsd with `supply` base units to account #0; resolves once mined. */
export async function deployTestUsd(url: string, supply: bigint): Promise<Address> {
  const { wallet, pub } = chainClients(url);
  const hash = await wallet.deployContract({
    abi: TEST_USD_ABI,
    bytecode: testUsdBytecode(),
    args: [supply],
  });
  const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (!receipt.contractAddress) throw new Error('TestUsd was not deployed');
  return receipt.contractAddress;
}
