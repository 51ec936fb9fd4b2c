export * from './gateway-logger';
