export * from './virtual-account.dto';
