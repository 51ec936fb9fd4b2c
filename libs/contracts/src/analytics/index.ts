export * from './analytics.dto';
