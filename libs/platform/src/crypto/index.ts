export * from './hashing';
