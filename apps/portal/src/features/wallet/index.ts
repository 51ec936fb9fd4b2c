export { WalletPage } from './pages/WalletPage';
export { BalancesTable } from './components/BalancesTable';
export { useBalances } from './hooks/useWallet';
