export * from './scan-runner';
