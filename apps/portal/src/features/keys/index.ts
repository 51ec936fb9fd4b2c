export { KeysPage } from './pages/KeysPage';
