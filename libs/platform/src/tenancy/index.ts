export * from './developer-context';
export * from './test-mode';
export * from './request-scope';
