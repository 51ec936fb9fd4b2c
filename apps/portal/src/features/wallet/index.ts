export { WalletPage } from './pages/WalletPage';
