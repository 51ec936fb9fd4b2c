export * from './test-clock.dto';
