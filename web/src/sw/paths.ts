// Which same-origin URLs are public pages: the only ones the prefetcher may
// fetch ahead and the service worker may keep for offline reading. Shared by
// both (the service worker bundles its own copy), so they never disagree.

/**
 * robots.txt's Disallow list (generator/src/pages/crawl.rs `DISALLOW`, kept in
 * step by paths.test.ts): the GET calls that change state and the per-visitor
 * pages. Matched as robots.txt does, by prefix.
 */
export const DISALLOWED = [
  '/api/',
  '/cart',
  '/checkout',
  '/payment',
  '/order',
  '/thank-you',
  '/fail',
  '/nagad-thank-you',
  '/redirect-from-ssl',
  '/compare',
  '/wishlist',
  '/review',
  '/product/review/',
  '/page/track-order',
  '/user',
  '/lite/',
];

/** Paths that are not pages: hashed assets, images, the worker and its offline page. */
const NOT_PAGES = ['/assets/', '/storage/', '/sw.js', '/offline'];

/** Words of links that change state (add-to-cart and the like), wherever they appear. */
const STATE_CHANGING = /add-to|remove-|logout|sign-?out|delete/i;

/**
 * Whether `url` is a public page of this origin: not the API, not a
 * per-visitor page, not a search result (`?keyword=`, disallowed to crawlers
 * too), not a file (a last segment with a dot), not a state-changing link.
 */
export function isPublicPage(url: URL, origin: string): boolean {
  const path = url.pathname;
  if (url.origin !== origin || !/^https?:$/.test(url.protocol)) return false;
  if (path === '/api' || DISALLOWED.concat(NOT_PAGES).some((p) => path.startsWith(p))) return false;
  if (url.searchParams.has('keyword') || STATE_CHANGING.test(path + url.search)) return false;
  return !/\.[^/]*$/.test(path);
}
