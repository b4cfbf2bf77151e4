// The service worker's decisions, apart from the worker (src/sw/sw.ts) so
// tests can drive them: which requests it answers and how, what it keeps,
// which caches are stale. See web/README.md "Slow links".
import { isPublicPage } from './paths';

/** Every cache this worker makes starts with this. */
export const CACHE_PREFIX = 'shop-';
/** Visited pages, kept across deploys (bump the version when their format changes). */
export const PAGES_CACHE = 'shop-pages-v1';
/** The offline page the generator writes (generator/src/pages/errors.rs). */
export const OFFLINE_URL = '/offline';
/** Where Vite's hashed files are served (vite.config.ts `base`). */
export const ASSETS_PREFIX = '/assets/';
/** A page waits this long for the network before a cached copy is shown. */
export const NETWORK_TIMEOUT_MS = 3000;
/** Most visited pages kept; the least recently fetched go first. */
export const MAX_PAGES = 50;
/** Most hashed files kept beyond the precached ones. */
export const MAX_ASSETS = 80;

/** The cache of this build's hashed files and offline page: `shop-static-<version>`. */
export function staticCache(version: string): string {
  return `${CACHE_PREFIX}static-${version}`;
}

/** What is fetched on install: the offline page, then this build's loader and shared chunks. */
export function precacheList(assets: string[]): string[] {
  return [OFFLINE_URL, ...assets.map((f) => ASSETS_PREFIX + f)];
}

/** Caches of this worker that the current version does not use (deleted on activate). */
export function staleCaches(names: string[], version: string): string[] {
  return names.filter((n) => n.startsWith(CACHE_PREFIX) && n !== PAGES_CACHE && n !== staticCache(version));
}

/**
 * How a request is answered: `asset` cache-first, `page` network-first,
 * `online` from the network only (the offline page when it fails), `null`
 * left to the browser.
 */
export type Strategy = 'asset' | 'page' | 'online' | null;

/** The request fields the decision reads. */
export interface RequestInfoLike {
  method: string;
  url: string;
  mode?: string;
  headers: Headers;
}

/**
 * The strategy of a request. Only GETs of this origin are answered: hashed
 * files under /assets/ (not ranges) cache-first, navigations to public pages
 * network-first, and navigations to other pages (per-visitor, search) from
 * the network, never kept. The API, other methods, other origins, images and
 * everything else go to the network untouched.
 */
export function strategyFor(req: RequestInfoLike, origin: string): Strategy {
  if (req.method !== 'GET' || req.headers.has('range')) return null;
  const url = new URL(req.url);
  if (url.origin !== origin) return null;
  if (url.pathname.startsWith(ASSETS_PREFIX)) return 'asset';
  if (isPublicPage(url, origin)) return req.mode === 'navigate' || (req.headers.get('accept') ?? '').includes('text/html') ? 'page' : null;
  return req.mode === 'navigate' && !/^\/api(\/|$)/.test(url.pathname) ? 'online' : null;
}

/** The response fields the decision reads. */
export interface ResponseLike {
  status: number;
  type: string;
  redirected?: boolean;
  headers: Headers;
}

/**
 * Whether a response may be kept: a plain 200 of this origin, not reached
 * through a redirect, not `private` or `no-store`, not `Vary: *`.
 */
export function storable(res: ResponseLike): boolean {
  const cc = (res.headers.get('cache-control') ?? '').toLowerCase();
  return res.status === 200 && res.type === 'basic' && !res.redirected && !/(^|[\s,])(private|no-store)\b/.test(cc) && res.headers.get('vary')?.trim() !== '*';
}

/** The part of the Cache API the strategies use. */
export interface CacheLike {
  match(key: string): Promise<Response | undefined>;
  put(key: string, res: Response): Promise<void>;
  keys(): Promise<readonly { url: string }[]>;
  delete(key: string): Promise<boolean>;
}

/** Stores a copy of `res` under `key` and drops the oldest entries beyond `max`. */
export async function keep(cache: CacheLike, key: string, res: Response, max: number): Promise<void> {
  await cache.put(key, res);
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - max)).map((k) => cache.delete(k.url)));
}

/** Fetches a request from the network. */
export type Fetch = (req: Request) => Promise<Response>;

/**
 * A strategy's outcome: the answer, and the work that goes on after it
 * (storing a copy), which the worker waits for (`waitUntil`).
 */
export interface Answer {
  response: Promise<Response>;
  done: Promise<unknown>;
}

/** Hashed files never change: the cached copy, else the network's (kept when storable). */
export function cacheFirst(req: Request, cache: CacheLike, fetch: Fetch): Answer {
  let store: Promise<void> | undefined;
  const response = cache.match(req.url).then(async (hit) => {
    if (hit) return hit;
    const res = await fetch(req);
    if (storable(res)) store = keep(cache, req.url, res.clone(), MAX_ASSETS);
    return res;
  });
  return {
    response,
    done: response.then(
      () => store,
      () => undefined,
    ),
  };
}

/**
 * A page: the network's answer (a storable one is kept for offline reading);
 * when the network fails or answers 5xx, or is slower than `timeout` ms and a
 * copy is kept, the kept copy; with neither, `offline()` (the offline page),
 * or the network's 5xx when there is one. A network answer that comes after
 * the timeout is still kept, for the next visit.
 */
export function networkFirst(req: Request, pages: CacheLike, offline: () => Promise<Response>, fetch: Fetch, timeout = NETWORK_TIMEOUT_MS): Answer {
  const kept = pages.match(req.url).catch(() => undefined);
  const network = fetch(req);
  let store: Promise<void> | undefined;
  const response = new Promise<Response>((resolve) => {
    let done = false;
    const answer = (res: Response | undefined) => {
      if (res && !done) {
        done = true;
        resolve(res);
      }
    };
    const timer = setTimeout(() => void kept.then(answer), timeout);
    network.then(
      async (res) => {
        if (res.status < 500) {
          clearTimeout(timer);
          if (storable(res)) store = keep(pages, req.url, res.clone(), MAX_PAGES);
          return answer(res);
        }
        answer((await kept) ?? res);
      },
      async () => answer((await kept) ?? (await offline())),
    );
  });
  // Runs after the handler above, which has set `store` by then (the copy is
  // taken before the answer is handed over, while its body is unread).
  return {
    response,
    done: network.then(
      () => store,
      () => undefined,
    ),
  };
}

/** A page never kept (per-visitor, search): the network's answer, else the offline page. */
export function networkOnly(req: Request, offline: () => Promise<Response>, fetch: Fetch): Answer {
  return { response: fetch(req).catch(offline), done: Promise.resolve() };
}

/** The last resort when even the offline page is not cached. */
export function offlineText(): Response {
  return new Response(
    '<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>You are offline</title><h1>You are offline</h1><p>This page cannot be loaded without a connection.</p><p><a href="">Retry</a></p>',
    { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8' } },
  );
}
