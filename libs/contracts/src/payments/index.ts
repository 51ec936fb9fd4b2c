export * from './payment.dto';
export * from './payment-preview.dto';
