export * from './supervision';
export * from './on-shutdown';
export * from './failpoints';
