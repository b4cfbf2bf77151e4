// What the loader runs once the page has loaded and the browser is idle
// (src/loader.ts): prefetching the likely next pages, and the service worker
// that keeps the site's files and visited pages for slow or lost links.
import { startPrefetch } from './prefetch';
import { registerServiceWorker } from './register';

startPrefetch();
void registerServiceWorker();
