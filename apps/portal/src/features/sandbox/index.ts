export { SandboxPage } from './pages/SandboxPage';
