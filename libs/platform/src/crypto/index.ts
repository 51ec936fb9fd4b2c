export * from './hashing';
export * from './encryption';
export * from './random-hex';
export * from './time-ordered-hex';
export * from './time-ordered-uuid';
