export { StatusPage } from './pages/StatusPage';
