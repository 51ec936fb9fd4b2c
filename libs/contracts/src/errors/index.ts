export * from './error-code';
