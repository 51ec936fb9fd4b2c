export * from './list-query.dto';
