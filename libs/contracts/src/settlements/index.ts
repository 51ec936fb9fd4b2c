export * from './settlement.dto';
