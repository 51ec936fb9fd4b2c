export { ReportsPage } from './pages/ReportsPage';
