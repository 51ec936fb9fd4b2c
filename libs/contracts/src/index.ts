export * from './errors';
export * from './envelope';
export * from './pagination';
export * from './common';
export * from './auth';
export * from './customers';
export * from './portal';
