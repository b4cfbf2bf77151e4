// Prefetching the likely next pages (SPEC.md §9: never on 2g or with
// data saver). Links to public pages (src/sw/paths.ts) are fetched ahead
// when the visitor shows intent (hover, touch, keyboard focus) and, on a
// fast link, when they scroll into view; at most a few per page.
import { isPublicPage } from '../sw/paths';

/** Most pages prefetched on one page, whatever triggered them. */
export const MAX_PREFETCHES = 6;
/** Of those, most prefetched only for being in view. */
export const MAX_IN_VIEW = 3;
/** A pointer resting this long on a link shows intent (a sweep across does not). */
export const HOVER_MS = 80;

/** The Network Information API's fields read here (Chromium only). */
export interface ConnectionLike {
  saveData?: boolean;
  effectiveType?: string;
}

/**
 * What to prefetch on this connection: nothing with data saver or on
 * (slow-)2g; on 4g the links in view as well as those the visitor points at;
 * on 3g, or where the browser does not tell, only those pointed at.
 */
export function prefetchMode(conn: ConnectionLike | undefined): 'none' | 'intent' | 'all' {
  if (!conn) return 'intent';
  if (conn.saveData || conn.effectiveType === '2g' || conn.effectiveType === 'slow-2g') return 'none';
  return conn.effectiveType === '4g' ? 'all' : 'intent';
}

/** Asks for a page at low priority: `<link rel=prefetch>`, or a low-priority fetch where unsupported. */
export function prefetchPage(href: string): void {
  const link = document.createElement('link');
  let supported = false;
  try {
    supported = link.relList.supports('prefetch');
  } catch {
    // relList.supports throws where the browser knows no rel tokens
  }
  if (supported) {
    link.rel = 'prefetch';
    link.href = href;
    document.head.append(link);
  } else {
    fetch(href, { credentials: 'same-origin', priority: 'low' }).catch(() => undefined);
  }
}

/** Options for tests: the connection, what fetching a page means, where links are watched. */
export interface PrefetchOptions {
  connection?: ConnectionLike;
  fetchPage?: (href: string) => void;
  root?: Document | HTMLElement;
}

/**
 * Starts prefetching on this page; answers the mode it chose. Links are
 * found through events on the document, so links islands add later count
 * too (those in view only if present at start).
 */
export function startPrefetch(options: PrefetchOptions = {}): 'none' | 'intent' | 'all' {
  const conn = 'connection' in options ? options.connection : (navigator as { connection?: ConnectionLike }).connection;
  const mode = prefetchMode(conn);
  if (mode === 'none') return mode;
  const fetchPage = options.fetchPage ?? prefetchPage;
  const root = options.root ?? document;
  const done = new Set([location.href.split('#')[0]]);
  let count = 0;
  let inView = 0;

  /** The page URL of a link worth prefetching, or undefined. */
  const target = (node: EventTarget | null): string | undefined => {
    const a = node instanceof Element ? node.closest<HTMLAnchorElement>('a[href]') : null;
    if (!a || a.hasAttribute('download') || a.closest('[data-no-prefetch]')) return;
    const url = new URL(a.href, location.href);
    url.hash = '';
    return isPublicPage(url, location.origin) && !done.has(url.href) ? url.href : undefined;
  };
  const go = (href: string | undefined, fromView = false): void => {
    if (!href || count >= MAX_PREFETCHES || (fromView && inView >= MAX_IN_VIEW)) return;
    done.add(href);
    count++;
    if (fromView) inView++;
    fetchPage(href);
  };

  let timer: ReturnType<typeof setTimeout> | undefined;
  root.addEventListener('mouseover', (e) => {
    const href = target(e.target);
    clearTimeout(timer);
    if (href) timer = setTimeout(() => go(href), HOVER_MS);
  });
  root.addEventListener('mouseout', () => clearTimeout(timer));
  root.addEventListener('touchstart', (e) => go(target(e.target)), { passive: true });
  root.addEventListener('focusin', (e) => go(target(e.target)));

  if (mode === 'all' && 'IntersectionObserver' in window) {
    const io = new IntersectionObserver((entries) => {
      for (const e of entries) {
        if (!e.isIntersecting) continue;
        io.unobserve(e.target);
        go(target(e.target), true);
      }
      if (inView >= MAX_IN_VIEW) io.disconnect();
    });
    // In view: the page's own links (cards, categories), not the header's and footer's.
    (root.querySelector('main') ?? root).querySelectorAll('a[href]').forEach((a) => target(a) && io.observe(a));
  }
  return mode;
}
