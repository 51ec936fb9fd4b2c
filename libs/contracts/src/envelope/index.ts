export * from './envelope';
