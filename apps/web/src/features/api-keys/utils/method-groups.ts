/**
 * The RU table's methods sorted into groups a developer recognises (blocks, logs, account abstraction, …), by
 * name rules rather than a hand-kept list, so a method added to the table lands in a sensible group.
 */

export const METHOD_GROUPS = [
  'network',
  'fees',
  'state',
  'blocks',
  'transactions',
  'logs',
  'subscriptions',
  'accountAbstraction',
  'trace',
  'other',
] as const;
export type TMethodGroup = (typeof METHOD_GROUPS)[number];

/** First match wins; the order matters (user operations before transactions, filters before logs). */
const RULES: readonly [TMethodGroup, RegExp][] = [
  ['accountAbstraction', /UserOperation|^eth_supportedEntryPoints$/],
  ['trace', /^(trace|debug)_/],
  ['subscriptions', /^eth_(subscribe|unsubscribe|subscription)$/],
  [
    'logs',
    /^eth_(getLogs|newFilter|newBlockFilter|newPendingTransactionFilter|getFilter\w*|uninstallFilter)$/,
  ],
  [
    'fees',
    /^eth_(gasPrice|maxPriorityFeePerGas|blobBaseFee|feeHistory|estimateGas|createAccessList)$/,
  ],
  [
    'network',
    /^(net|web3)_|^eth_(chainId|syncing|protocolVersion|blockNumber|coinbase|mining|hashrate)$/,
  ],
  ['state', /^eth_(getBalance|getCode|getStorageAt|getProof|call|getTransactionCount)$/],
  ['blocks', /^eth_get(Block|Uncle)/],
  ['transactions', /^eth_(getTransaction|sendRawTransaction)/],
];

export function methodGroup(method: string): TMethodGroup {
  return RULES.find(([, rule]) => rule.test(method))?.[0] ?? 'other';
}

export type TPricedMethod = { method: string; ru: number };

/** The methods matching `search` (any part of the name, any case) in their groups, in METHOD_GROUPS order. */
export function groupMethods<T extends TPricedMethod>(
  methods: readonly T[],
  search = '',
): { group: TMethodGroup; methods: T[] }[] {
  const needle = search.trim().toLowerCase();
  const byGroup = new Map<TMethodGroup, T[]>();
  for (const m of methods) {
    if (needle && !m.method.toLowerCase().includes(needle)) continue;
    const group = methodGroup(m.method);
    const list = byGroup.get(group);
    if (list) list.push(m);
    else byGroup.set(group, [m]);
  }
  return METHOD_GROUPS.flatMap((group) => {
    const list = byGroup.get(group);
    return list ? [{ group, methods: list }] : [];
  });
}
