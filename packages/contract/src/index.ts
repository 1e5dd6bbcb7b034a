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
