export * from './bounded-concurrency';
