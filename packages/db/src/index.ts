export * from './schema/index';
export * from './client';
