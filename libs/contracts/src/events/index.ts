export * from './catalog';
export * from './payloads';
