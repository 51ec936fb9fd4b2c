export * from './bounded-concurrency';
export * from './long-poll';
