export * from './invoice.dto';
