export * from './mode';
