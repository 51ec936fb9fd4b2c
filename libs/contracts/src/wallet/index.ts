export * from './wallet.dto';
