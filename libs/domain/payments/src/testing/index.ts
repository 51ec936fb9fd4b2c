export { confirmedPayment, providerSuccess } from './confirmed-payment';
