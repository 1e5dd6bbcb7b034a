/** The whole schema, one module per table; drizzle needs them together for relational queries. */
export * from './accounts';
export * from './users';
export * from './account-members';
export * from './sessions';
export * from './one-time-codes';
export * from './api-keys';
export * from './secret-fingerprints';
export * from './usage';
export * from './usage-refusals';
export * from './ru-ledger';
export * from './notices';
export * from './throttle-counters';
export * from './wallet';
export * from './deposits';
export * from './exports';
export * from './spend-limits';
