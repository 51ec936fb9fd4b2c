export * from './test-database';
export * from './test-config';
export * from './domain-context';
export * from './test-redis';
export * from './wait-for';
export * from './refusal';
export * from './statements';
