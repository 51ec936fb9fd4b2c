export * from './developer-context';
