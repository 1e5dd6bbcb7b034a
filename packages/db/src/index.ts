export * from './schema/index';
export * from './client';
export * from './raw-sql';
