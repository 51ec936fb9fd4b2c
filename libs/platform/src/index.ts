export * from './config';
export * from './database';
export * from './errors';
export * from './clock';
export * from './crypto';
export * from './tenancy';
export * from './money';
export * from './process';
