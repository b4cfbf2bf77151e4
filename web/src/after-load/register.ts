// Registers the service worker (src/sw/sw.ts, served as /sw.js at the site
// root) where the browser supports it, on a secure page, and not for crawlers.

/** The worker's URL: at the root, so its scope is the whole site. */
export const SW_URL = '/sw.js';
/** User agents that get no service worker: crawlers and link previewers. */
export const BOTS = /bot|crawl|spider|slurp|facebookexternalhit|embedly|preview/i;

/** Whether this browser should register the worker. */
export function canRegister(nav: Pick<Navigator, 'userAgent'> & { serviceWorker?: unknown }, secure: boolean): boolean {
  return secure && !!nav.serviceWorker && !BOTS.test(nav.userAgent);
}

/** Registers the worker when [`canRegister`] says so; a failure is only logged. */
export function registerServiceWorker(nav: Navigator = navigator, secure = window.isSecureContext): Promise<unknown> | undefined {
  if (!canRegister(nav, secure)) return;
  return nav.serviceWorker.register(SW_URL, { scope: '/' }).catch((e) => console.warn('service worker not registered', e));
}
