/** The code examples: each language's snippet with the endpoint filled in, and literals no URL can break out of. */
import { describe, expect, it } from 'vitest';
import type { TExampleTarget } from './code-examples';
import { buildCodeExamples, exampleAddress, jsString, pythonString } from './code-examples';
import { shellQuote } from './endpoint-urls';

/** Reads a POSIX shell word made of '…' runs and \\' escapes back into its text, as sh would. */
function unshell(word: string): string {
  expect(word).toMatch(/^(?:'[^']*'|\\')+$/);
  return word.replace(/'([^']*)'|\\'/g, (_m, inner: string | undefined) => inner ?? "'");
}

/** Reads a single-quoted Python literal with \\\\, \\', \\uXXXX escapes back into its text. */
function unpython(literal: string): string {
  expect(literal).toMatch(/^'(?:[^'\\\n\r]|\\.)*'$/s);
  return literal
    .slice(1, -1)
    .replace(/\\(u[0-9a-f]{4}|.)/g, (_m, e: string) =>
      e.length === 5 ? String.fromCharCode(parseInt(e.slice(1), 16)) : e,
    );
}

const NASTY = [
  'https://rpc.example.com/v1/eth/abc',
  "https://x.example.com/it's",
  'https://x.example.com/a\\b"c`${process.exit()}',
  'https://x.example.com/line\nbreak\r\u2028\u2029\u0000',
  "'; rm -rf / #",
];

describe('string literals', () => {
  it.each(NASTY)('JavaScript keeps %j as it is', (value) => {
    const literal = jsString(value);
    expect(new Function(`return ${literal};`)()).toBe(value);
    expect(literal).not.toMatch(/[\n\r\u2028\u2029]/);
  });

  it.each(NASTY)('Python keeps %j as it is', (value) => {
    const literal = pythonString(value);
    expect(unpython(literal)).toBe(value);
    expect(literal).not.toMatch(/[\n\r]/);
  });

  it.each(NASTY)('the shell keeps %j as it is', (value) => {
    expect(unshell(shellQuote(value))).toBe(value);
  });
});

const LOCALNET: TExampleTarget = {
  httpUrl: 'http://localhost:3001/v1/localnet/k123',
  wsUrl: 'ws://localhost:3001/v1/localnet/k123',
  chainId: 31337,
  chainName: 'Localnet (Hardhat)',
};

describe('buildCodeExamples', () => {
  it('curl: block number and balance against the URL', () => {
    const { curl } = buildCodeExamples(LOCALNET);
    expect(curl.ws).toBeUndefined();
    expect(curl.http).toContain("curl -X POST 'http://localhost:3001/v1/localnet/k123' \\");
    expect(curl.http).toContain('"method":"eth_blockNumber"');
    expect(curl.http).toContain(
      `"method":"eth_getBalance","params":["${exampleAddress(31337)}","latest"]`,
    );
  });

  it('viem: a built-in chain by id, http() and webSocket() with the URLs', () => {
    const { viem } = buildCodeExamples(LOCALNET);
    expect(viem.http).toBe(
      [
        "import { createPublicClient, http } from 'viem';",
        "import { hardhat } from 'viem/chains';",
        '',
        'const client = createPublicClient({',
        '  chain: hardhat,',
        "  transport: http('http://localhost:3001/v1/localnet/k123'),",
        '});',
        '',
        'const blockNumber = await client.getBlockNumber();',
        "const balance = await client.getBalance({ address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' });",
        'console.log(blockNumber, balance);',
      ].join('\n'),
    );
    expect(viem.ws).toContain("import { createPublicClient, webSocket } from 'viem';");
    expect(viem.ws).toContain("transport: webSocket('ws://localhost:3001/v1/localnet/k123'),");
    expect(viem.ws).toContain('client.watchBlockNumber({');
    expect(buildCodeExamples({ ...LOCALNET, chainId: 1 }).viem.http).toContain(
      "import { mainnet } from 'viem/chains';",
    );
  });

  it('viem: defineChain with the catalogue id when viem has no such chain, no chain when there is no id', () => {
    const custom = buildCodeExamples({
      ...LOCALNET,
      chainId: 777777,
      chainName: "Bob's chain",
    }).viem;
    expect(custom.http).toContain("import { createPublicClient, defineChain, http } from 'viem';");
    expect(custom.http).not.toContain('viem/chains');
    expect(custom.http).toContain('  id: 777777,');
    expect(custom.http).toContain("  name: 'Bob\\'s chain',");
    expect(custom.http).toContain(
      "  rpcUrls: { default: { http: ['http://localhost:3001/v1/localnet/k123'], webSocket: ['ws://localhost:3001/v1/localnet/k123'] } },",
    );
    expect(custom.http).toContain('  chain: chain,');
    const none = buildCodeExamples({ ...LOCALNET, chainId: null }).viem.http;
    expect(none).not.toContain('chain');
    expect(none).toContain('createPublicClient({\n  transport: http(');
  });

  it('ethers v6: a static network from the chain id, WebSocketProvider for WSS', () => {
    const { ethers } = buildCodeExamples(LOCALNET);
    expect(ethers.http).toContain("import { JsonRpcProvider } from 'ethers';");
    expect(ethers.http).toContain(
      "new JsonRpcProvider('http://localhost:3001/v1/localnet/k123', 31337, { staticNetwork: true });",
    );
    expect(ethers.http).toContain('await provider.getBlockNumber()');
    expect(ethers.http).toContain(
      "await provider.getBalance('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')",
    );
    expect(ethers.ws).toContain(
      "new WebSocketProvider('ws://localhost:3001/v1/localnet/k123', 31337);",
    );
    expect(buildCodeExamples({ ...LOCALNET, chainId: null }).ethers.http).toContain(
      "new JsonRpcProvider('http://localhost:3001/v1/localnet/k123');",
    );
  });

  it('web3.py: HTTPProvider, and AsyncWeb3 with WebSocketProvider', () => {
    const { web3py } = buildCodeExamples({ ...LOCALNET, chainId: 1 });
    expect(web3py.http).toBe(
      [
        'from web3 import Web3',
        '',
        "w3 = Web3(Web3.HTTPProvider('http://localhost:3001/v1/localnet/k123'))",
        'print(w3.eth.block_number)',
        "print(w3.eth.get_balance('0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'))",
      ].join('\n'),
    );
    expect(web3py.ws).toContain(
      "    async with AsyncWeb3(WebSocketProvider('ws://localhost:3001/v1/localnet/k123')) as w3:",
    );
    expect(web3py.ws).toContain('asyncio.run(main())');
  });

  it('leaves out the WebSocket variants when there is no WSS URL', () => {
    const { wsUrl: _ws, ...httpOnly } = LOCALNET;
    const examples = buildCodeExamples(httpOnly);
    expect(Object.values(examples).map((e) => e.ws)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('puts a hostile URL into every snippet only as a literal', () => {
    const url = "https://x.example.com/'); process.exit(1); ('";
    const examples = buildCodeExamples({ ...LOCALNET, httpUrl: url, chainId: 1 });
    expect(examples.viem.http).toContain(`http(${jsString(url)})`);
    expect(examples.ethers.http).toContain(`new JsonRpcProvider(${jsString(url)}, 1`);
    expect(examples.web3py.http).toContain(`Web3.HTTPProvider(${pythonString(url)})`);
    expect(examples.curl.http).toContain(`curl -X POST ${shellQuote(url)} \\`);
    expect(examples.viem.http).not.toContain("('); process");
  });
});
