export * from './payment-intent.dto';
