export { IpAllowlistPage } from './pages/IpAllowlistPage';
