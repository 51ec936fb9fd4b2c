export * from './health.dto';
