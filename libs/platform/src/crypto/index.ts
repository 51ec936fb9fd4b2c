export * from './hashing';
export * from './encryption';
