export * from './refund.dto';
