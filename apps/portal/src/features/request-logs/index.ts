export { RequestLogsPage } from './pages/RequestLogsPage';
export { RequestTracePage } from './pages/RequestTracePage';
