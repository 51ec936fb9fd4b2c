export * from './cursor';
export * from './cursor-codec';
export * from './keyset';
export * from './all-pages';
export * from './commit-order-feed';
