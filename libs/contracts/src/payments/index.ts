export * from './payment.dto';
