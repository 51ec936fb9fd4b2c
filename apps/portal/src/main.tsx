import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { App } from './app/App';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('The portal needs an element with id "root" in index.html.');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
