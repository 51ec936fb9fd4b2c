export { WalletPage } from './pages/WalletPage';
export { BalancesTable } from './components/BalancesTable';
export { LedgerTable } from './components/LedgerTable';
export { useBalances } from './hooks/useWallet';
