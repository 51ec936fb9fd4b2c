export * from './data-source';
export * from './embedded-postgres';
export * from './resolve-database';
export * from './transaction';
export * from './access-notifications';
export * from './job-queue';
export * from './storable-text';
