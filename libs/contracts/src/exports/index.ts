export * from './export.dto';
