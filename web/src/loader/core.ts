// The island loader's logic (web/ISLANDS.md), kept apart from the entry so
// tests can drive it with fake islands. No React here: this code runs on
// every page with an island and must stay about 1 KB brotli.

/** What an island chunk exports: `mount(element, props)`. */
export type Mount = (el: HTMLElement, props: unknown) => unknown;
/** Loads one island's chunk (a dynamic import); importers are keyed by island name. */
export type Importer = () => Promise<{ default: Mount }>;

/** No second reload within this many ms after a chunk failed to load (SPEC.md §9). */
export const RELOAD_GUARD_MS = 60_000;
/** The sessionStorage key holding the time of the last chunk-failure reload. */
export const RELOAD_KEY = 'island-reload-at';

/** Reports a failed island: console and an `island-error` event; the fallback stays. */
export function report(name: string, error: unknown): void {
  console.error(`island ${name} failed`, error);
  window.dispatchEvent(new CustomEvent('island-error', { detail: { name, error } }));
}

/**
 * After a chunk failed to load (usually a new deploy replaced the hashed
 * files), reloads the page once; never twice within 60 s, so a broken deploy
 * cannot loop. Answers whether it reloaded.
 */
export function reloadOnce(reload: () => void = () => location.reload(), now = Date.now()): boolean {
  if (!navigator.onLine) return false; // offline, the reload could not load it either
  try {
    if (now - (Number(sessionStorage.getItem(RELOAD_KEY)) || 0) < RELOAD_GUARD_MS) return false;
    sessionStorage.setItem(RELOAD_KEY, String(now));
  } catch {
    return false; // without storage the guard cannot hold: never reload
  }
  reload();
  return true;
}

/**
 * The island's props: JSON in its next sibling `<script type="application/json"
 * data-island-props>` (`<`, `>`, `&` escaped as `\u003c`... which JSON reads
 * back as is), or `{}` when there is none.
 */
export function parseProps(el: Element): unknown {
  const next = el.nextElementSibling;
  return next?.matches('script[data-island-props]') ? JSON.parse(next.textContent || '{}') : {};
}

/** Calls `run` when the island's `data-when` says: load, idle, visible (the default) or media. */
export function schedule(el: HTMLElement, run: () => void): void {
  const when = el.dataset.when || 'visible';
  if (when === 'idle') {
    if ('requestIdleCallback' in window) requestIdleCallback(run, { timeout: 3000 });
    else setTimeout(run, 200);
  } else if (when === 'visible' && 'IntersectionObserver' in window) {
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          io.disconnect();
          run();
        }
      },
      { rootMargin: '200px' },
    );
    io.observe(el);
  } else if (when === 'media') {
    const mq = matchMedia(el.dataset.media || 'all');
    const check = () => {
      if (mq.matches) {
        mq.removeEventListener('change', check);
        run();
      }
    };
    mq.addEventListener('change', check);
    check();
  } else {
    run();
  }
}

/** Loads and mounts one island (then flags it `data-live`); a failure keeps the fallback and is reported. */
export async function start(el: HTMLElement, importers: Record<string, Importer>): Promise<void> {
  const name = el.dataset.island || '';
  const importer = importers[name];
  let props: unknown;
  let mod: { default: Mount };
  try {
    if (!importer) throw new Error('no such island');
    props = parseProps(el);
  } catch (e) {
    return report(name, e);
  }
  try {
    mod = await importer();
  } catch (e) {
    report(name, e);
    reloadOnce();
    return;
  }
  try {
    await mod.default(el, props);
    el.dataset.live = '';
  } catch (e) {
    report(name, e);
  }
}

/**
 * Once the page has loaded and the browser is idle, imports `url` (the
 * after-load chunk: prefetching and the service worker); a failure is ignored.
 */
export function afterLoad(url: string): void {
  addEventListener('load', () => (self.requestIdleCallback || setTimeout)(() => void import(/* @vite-ignore */ url).catch(() => {})));
}

/**
 * Calls `run` once the page has loaded (the images in view included) and the
 * frame after has been painted. The loader is written into the page, so it
 * runs as soon as the page is parsed: islands that need not load at once wait
 * for this, so React's chunk never shares the link with the page's largest
 * image (Lighthouse counts every byte that arrives before the largest paint).
 */
export function afterPaint(run: () => void): void {
  const go = () => requestAnimationFrame(() => setTimeout(run, 0));
  if (document.readyState === 'complete') go();
  else addEventListener('load', go, { once: true });
}

/** Finds every island under `root` and schedules each: `load` ones at once, the others after the page's paint. */
export function boot(importers: Record<string, Importer>, root: ParentNode = document): void {
  root.querySelectorAll<HTMLElement>('[data-island]').forEach((el) => {
    const run = () => schedule(el, () => void start(el, importers));
    if (el.dataset.when === 'load') run();
    else afterPaint(run);
  });
}

/**
 * The build's island files (written by scripts/vite-islands.mjs): `s`, the
 * chunks and CSS every island needs (React, the islands' lib); `i`, each
 * island's own chunk followed by its other chunks and CSS, space-separated,
 * where a bare hash `h` stands for `<name>-h.js` (first) or `<name>-h.css`.
 */
export interface IslandFiles {
  s: string[];
  i: Record<string, string>;
}

/**
 * Adds a modulepreload or stylesheet link once; answers when a stylesheet has
 * loaded (or failed). A `<link rel="preload" as="style">` the page wrote for
 * the same file (so it arrives early) does not count: the stylesheet is added
 * and takes the preloaded answer.
 */
function fetchEarly(href: string): Promise<unknown> | void {
  const css = href.endsWith('.css');
  const rel = css ? 'stylesheet' : 'modulepreload';
  if (document.querySelector(`link[rel="${rel}"][href="${href}"]`)) return;
  const link = document.createElement('link');
  link.rel = rel;
  link.href = href;
  const done = css ? new Promise((r) => (link.onload = link.onerror = r)) : undefined;
  document.head.append(link);
  return done;
}

/**
 * Importers from the build's island map: each fetches the island's shared
 * chunks and CSS in parallel with its own chunk, and resolves once the
 * chunk is evaluated and its CSS applied, so the island never shows unstyled.
 */
export function importersFrom(files: IslandFiles, base: string): Record<string, Importer> {
  const out: Record<string, Importer> = {};
  for (const [name, spec] of Object.entries(files.i)) {
    const [main, ...deps] = spec.split(' ').map((t, k) => (t.includes('.') ? t : `${name}-${t}.${k ? 'css' : 'js'}`));
    out[name] = () =>
      Promise.all([import(/* @vite-ignore */ base + main), ...files.s.concat(deps).map((d) => fetchEarly(base + d))]).then(([m]) => m as { default: Mount });
  }
  return out;
}
