export * from './wallet.dto';
export * from './ledger-verification.dto';
