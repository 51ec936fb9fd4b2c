export * from './subaccount.dto';
