export { DashboardPage } from './pages/DashboardPage';
