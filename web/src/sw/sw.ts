// The service worker, served as /sw.js at the site root (scope `/`). Built
// apart from the islands by scripts/vite-sw.mjs into dist/sw.js, which
// defines this build's precache list and version; the generator copies it to
// the site. Decisions live in ./policy.ts; web/README.md "Slow links" says
// what it keeps and how to check it.
import {
  cacheFirst,
  networkFirst,
  networkOnly,
  offlineText,
  OFFLINE_URL,
  PAGES_CACHE,
  precacheList,
  staleCaches,
  staticCache,
  strategyFor,
  type Answer,
} from './policy';

/** This build's loader, after-load and shared chunks (file names under /assets/). */
declare const __SW_ASSETS__: string[];
/** Changes whenever the list or the worker's code does. */
declare const __SW_VERSION__: string;

// The DOM library has no service-worker types; these are the few used here.
interface ExtendableEvent extends Event {
  waitUntil(work: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(res: Promise<Response>): void;
}
declare const self: {
  addEventListener(type: string, listener: (e: FetchEvent) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  location: Location;
};

const STATIC = staticCache(__SW_VERSION__);

self.addEventListener('install', (e) => {
  e.waitUntil(
    caches
      .open(STATIC)
      .then((c) => c.addAll(precacheList(__SW_ASSETS__)))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (e) => {
  e.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(staleCaches(names, __SW_VERSION__).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (e) => {
  const strategy = strategyFor(e.request, self.location.origin);
  if (!strategy) return;
  const net = (r: Request) => fetch(r);
  const offline = () => caches.match(OFFLINE_URL).then((r) => r ?? offlineText());
  const answer: Promise<Answer> =
    strategy === 'asset'
      ? caches.open(STATIC).then((c) => cacheFirst(e.request, c, net))
      : strategy === 'page'
        ? caches.open(PAGES_CACHE).then((c) => networkFirst(e.request, c, offline, net))
        : Promise.resolve(networkOnly(e.request, offline, net));
  // Without the Cache API (storage off, quota), the network alone.
  e.respondWith(
    answer.then(
      (a) => a.response,
      () => fetch(e.request),
    ),
  );
  e.waitUntil(answer.then((a) => a.done).catch(() => undefined));
});
