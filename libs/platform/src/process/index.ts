export * from './supervision';
export * from './on-shutdown';
