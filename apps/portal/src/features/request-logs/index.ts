export { RequestLogsPage } from './pages/RequestLogsPage';
