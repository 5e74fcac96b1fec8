import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { isChunkLoadError, reloadOnce } from './app/errors/chunkReload';
import { i18nReady } from './i18n';

// §2.2: a page part that fails to load outside the router (a preload, a stray import) reloads as well.
window.addEventListener('vite:preloadError', (event) => {
  if (reloadOnce()) event.preventDefault();
});
window.addEventListener('unhandledrejection', (event) => {
  if (isChunkLoadError(event.reason)) reloadOnce();
});

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
// The interface language's texts first (English is in this download; another is a small fetch): the
// page's own splash (index.html) shows meanwhile, so the first paint is never blank.
void i18nReady.finally(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
