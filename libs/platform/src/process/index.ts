export * from './supervision';
