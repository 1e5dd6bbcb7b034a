/**
 * Ready-to-run snippets that call a gateway endpoint (block number and a balance) in curl, viem, ethers v6 and
 * web3.py, with the user's own URL filled in. Every inserted value goes through its language's string-literal
 * escaping, so no URL or chain name can break out of the literal.
 */
import { curlExample, shellQuote } from './endpoint-urls';

export const CODE_LANGUAGES = ['curl', 'viem', 'ethers', 'web3py'] as const;
export type TCodeLanguage = (typeof CODE_LANGUAGES)[number];

export type TExampleTarget = {
  httpUrl: string;
  /** the WebSocket URL, when the chain has one */
  wsUrl?: string;
  /** EIP-155 chain id from the catalogue; null when the catalogue has none */
  chainId: number | null;
  chainName: string;
};

export type TCodeExample = { http: string; ws?: string };

/** viem's built-in chains (viem/chains export name) by chain id; any other id gets a defineChain. */
export const VIEM_CHAINS: Readonly<Record<number, string>> = {
  1: 'mainnet',
  10: 'optimism',
  56: 'bsc',
  97: 'bscTestnet',
  100: 'gnosis',
  137: 'polygon',
  250: 'fantom',
  8453: 'base',
  17000: 'holesky',
  31337: 'hardhat',
  42161: 'arbitrum',
  42220: 'celo',
  43114: 'avalanche',
  59144: 'linea',
  80002: 'polygonAmoy',
  84532: 'baseSepolia',
  421614: 'arbitrumSepolia',
  534352: 'scroll',
  11155111: 'sepolia',
  11155420: 'optimismSepolia',
};

/** An address whose balance is worth reading: Hardhat's first funded account on a local node, else a known one. */
export function exampleAddress(chainId: number | null): string {
  return chainId === 31337
    ? '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
    : '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
}

const hex4 = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** A single-quoted JavaScript string literal of any text. */
export function jsString(value: string): string {
  const body = value
    .replace(/\\/g, '\\\\')
    .replace(/'/g, "\\'")
    // Line breaks and other controls (and U+2028/9, line breaks to older parsers) as escapes.
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, hex4);
  return `'${body}'`;
}

/** A single-quoted Python string literal of any text. */
export function pythonString(value: string): string {
  const body = value
    .replace(/\\/g, '\\\\')
    .replace(/'/g, "\\'")
    .replace(/[\u0000-\u001f\u007f]/g, hex4);
  return `'${body}'`;
}

function viemChain(target: TExampleTarget): { imports: string[]; setup: string[]; chain?: string } {
  const { chainId } = target;
  if (chainId === null) return { imports: [], setup: [] };
  const builtIn = VIEM_CHAINS[chainId];
  if (builtIn) {
    return { imports: [`import { ${builtIn} } from 'viem/chains';`], setup: [], chain: builtIn };
  }
  const rpcUrls = target.wsUrl
    ? `{ default: { http: [${jsString(target.httpUrl)}], webSocket: [${jsString(target.wsUrl)}] } }`
    : `{ default: { http: [${jsString(target.httpUrl)}] } }`;
  return {
    imports: [],
    setup: [
      'const chain = defineChain({',
      `  id: ${chainId},`,
      `  name: ${jsString(target.chainName)},`,
      "  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },",
      `  rpcUrls: ${rpcUrls},`,
      '});',
      '',
    ],
    chain: 'chain',
  };
}

function viemExample(target: TExampleTarget, transport: 'http' | 'webSocket', url: string): string {
  const { imports, setup, chain } = viemChain(target);
  const names = ['createPublicClient', ...(setup.length ? ['defineChain'] : []), transport].sort();
  const address = jsString(exampleAddress(target.chainId));
  const read =
    transport === 'http'
      ? [
          'const blockNumber = await client.getBlockNumber();',
          `const balance = await client.getBalance({ address: ${address} });`,
          'console.log(blockNumber, balance);',
        ]
      : [
          'client.watchBlockNumber({',
          '  onBlockNumber: (blockNumber) => console.log(blockNumber),',
          '});',
        ];
  return [
    `import { ${names.join(', ')} } from 'viem';`,
    ...imports,
    '',
    ...setup,
    'const client = createPublicClient({',
    ...(chain ? [`  chain: ${chain},`] : []),
    `  transport: ${transport}(${jsString(url)}),`,
    '});',
    '',
    ...read,
  ].join('\n');
}

function ethersExample(target: TExampleTarget, kind: 'http' | 'ws', url: string): string {
  const provider = kind === 'http' ? 'JsonRpcProvider' : 'WebSocketProvider';
  // A known chain id spares the provider its eth_chainId probe before every first call.
  const args =
    target.chainId === null
      ? jsString(url)
      : kind === 'http'
        ? `${jsString(url)}, ${target.chainId}, { staticNetwork: true }`
        : `${jsString(url)}, ${target.chainId}`;
  const read =
    kind === 'http'
      ? [
          'const blockNumber = await provider.getBlockNumber();',
          `const balance = await provider.getBalance(${jsString(exampleAddress(target.chainId))});`,
          'console.log(blockNumber, balance);',
        ]
      : ["provider.on('block', (blockNumber) => console.log(blockNumber));"];
  return [
    `import { ${provider} } from 'ethers';`,
    '',
    `const provider = new ${provider}(${args});`,
    ...read,
  ].join('\n');
}

function web3pyExample(target: TExampleTarget, kind: 'http' | 'ws', url: string): string {
  const address = pythonString(exampleAddress(target.chainId));
  if (kind === 'http') {
    return [
      'from web3 import Web3',
      '',
      `w3 = Web3(Web3.HTTPProvider(${pythonString(url)}))`,
      'print(w3.eth.block_number)',
      `print(w3.eth.get_balance(${address}))`,
    ].join('\n');
  }
  return [
    'import asyncio',
    'from web3 import AsyncWeb3, WebSocketProvider',
    '',
    '',
    'async def main():',
    `    async with AsyncWeb3(WebSocketProvider(${pythonString(url)})) as w3:`,
    '        print(await w3.eth.block_number)',
    `        print(await w3.eth.get_balance(${address}))`,
    '',
    '',
    'asyncio.run(main())',
  ].join('\n');
}

/** curl: the block number and a balance, one command each. */
function curlExamples(target: TExampleTarget): string {
  const balance = JSON.stringify({
    jsonrpc: '2.0',
    id: 2,
    method: 'eth_getBalance',
    params: [exampleAddress(target.chainId), 'latest'],
  });
  return [
    curlExample(target.httpUrl),
    '',
    `curl -X POST ${shellQuote(target.httpUrl)} \\`,
    "  -H 'Content-Type: application/json' \\",
    `  --data ${shellQuote(balance)}`,
  ].join('\n');
}

/** Every language's snippet for one endpoint: HTTPS always, WebSocket where the language has a natural one. */
export function buildCodeExamples(target: TExampleTarget): Record<TCodeLanguage, TCodeExample> {
  const ws = target.wsUrl;
  return {
    curl: { http: curlExamples(target) },
    viem: {
      http: viemExample(target, 'http', target.httpUrl),
      ...(ws ? { ws: viemExample(target, 'webSocket', ws) } : {}),
    },
    ethers: {
      http: ethersExample(target, 'http', target.httpUrl),
      ...(ws ? { ws: ethersExample(target, 'ws', ws) } : {}),
    },
    web3py: {
      http: web3pyExample(target, 'http', target.httpUrl),
      ...(ws ? { ws: web3pyExample(target, 'ws', ws) } : {}),
    },
  };
}
