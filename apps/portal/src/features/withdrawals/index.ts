export { WithdrawalsPage } from './pages/WithdrawalsPage';
