// First: zod's eval switch must be set before any schema exists (see zod-config.ts).
import './zod-config';
export * from './constants';
export * from './errors';
export * from './define-method';
export * from './envelope';
export * from './methods';
export * from './openrpc';
export * from './account/schemas';
export {
  ZRegisterParamsSchema,
  ZLoginParamsSchema,
  ZPasswordResetParamsSchema,
  ZChangePasswordParamsSchema,
} from './account/methods';
export * from './api-keys/schemas';
export { MAX_API_KEYS_PER_ACCOUNT } from './api-keys/methods';
export { ZChainSchema, ZTierSchema, type TChain } from './chains/methods';
export * from './notices/schemas';
export * from './notices/render-notice-text';
export { ZEmailConfigSchema } from './notices/methods';
export * from './reports/schemas';
export * from './reports/range';
export * from './reports/time-zone';
export * from './wallet/schemas';
export { WALLET_METHODS } from './wallet/methods';
export { DEPOSIT_METHODS } from './deposits/methods';
export * from './exports/schemas';
export { EXPORT_METHODS } from './exports/methods';
export * from './invoices/schemas';
export { INVOICE_METHODS } from './invoices/methods';
export * from './cards/schemas';
export { CARD_METHODS } from './cards/methods';
export * from './teams/permissions';
export * from './teams/schemas';
export { TEAM_METHODS } from './teams/methods';
export * from './sign-in/schemas';
export { SIGN_IN_METHODS } from './sign-in/methods';
export * from './dedicated-nodes/schemas';
export { DN_METHODS } from './dedicated-nodes/methods';
export * from './support/schemas';
export { SUPPORT_METHODS } from './support/methods';
export * from './request-logs/schemas';
export { REQUEST_LOG_METHODS } from './request-logs/methods';
