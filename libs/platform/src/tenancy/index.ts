export * from './developer-context';
export * from './test-mode';
