import type { IslandEvents } from '../lib/events';
import {
  afterLoad,
  afterPaint,
  boot,
  importersFrom,
  parseProps,
  reloadOnce,
  RELOAD_GUARD_MS,
  RELOAD_KEY,
  schedule,
  start,
  type Importer,
  type Mount,
} from './core';

function page(html: string): HTMLElement {
  document.body.innerHTML = html;
  return document.body.querySelector<HTMLElement>('[data-island]')!;
}

const flush = () => new Promise((r) => setTimeout(r, 0));

function importersWith(name: string, mount: Mount): Record<string, Importer> {
  return { [name]: () => Promise.resolve({ default: mount }) };
}

beforeEach(() => {
  sessionStorage.clear();
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('parseProps', () => {
  it('reads the JSON of the next sibling, with <, > and & escaped as \\u003c...', () => {
    const el = page(
      '<div data-island="advert-modal"></div><script type="application/json" data-island-props>{"description":"\\u003cb\\u003eEid \\u0026 more\\u003c/b\\u003e","n":3}</script>',
    );
    expect(parseProps(el)).toEqual({ description: '<b>Eid & more</b>', n: 3 });
  });

  it('answers {} when no props element follows, even if another script does', () => {
    expect(parseProps(page('<div data-island="x"></div>'))).toEqual({});
    expect(parseProps(page('<div data-island="x"></div><script type="application/json">{"a":1}</script>'))).toEqual({});
  });

  it('throws on malformed JSON (the loader reports it)', () => {
    expect(() => parseProps(page('<div data-island="x"></div><script data-island-props>{oops</script>'))).toThrow();
  });
});

describe('schedule', () => {
  it('runs load islands at once, and unknown strategies too', () => {
    const run = vi.fn();
    schedule(page('<div data-island="a" data-when="load"></div>'), run);
    schedule(page('<div data-island="a" data-when="soon"></div>'), run);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('runs idle islands in requestIdleCallback with a timeout', () => {
    const ric = vi.fn();
    vi.stubGlobal('requestIdleCallback', ric);
    const run = vi.fn();
    schedule(page('<div data-island="a" data-when="idle"></div>'), run);
    expect(run).not.toHaveBeenCalled();
    expect(ric).toHaveBeenCalledWith(run, { timeout: 3000 });
  });

  it('falls back to a timer for idle where requestIdleCallback is missing', () => {
    vi.useFakeTimers();
    const run = vi.fn();
    schedule(page('<div data-island="a" data-when="idle"></div>'), run);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(200);
    expect(run).toHaveBeenCalledOnce();
    vi.useRealTimers();
  });

  it('runs visible islands (the default) once they near the viewport, once', () => {
    let callback: IntersectionObserverCallback = () => {};
    const observe = vi.fn();
    const disconnect = vi.fn();
    vi.stubGlobal(
      'IntersectionObserver',
      vi.fn(function (this: unknown, cb: IntersectionObserverCallback, options: IntersectionObserverInit) {
        callback = cb;
        expect(options.rootMargin).toBe('200px');
        return { observe, disconnect };
      }),
    );
    const run = vi.fn();
    const el = page('<div data-island="a"></div>');
    schedule(el, run);
    expect(observe).toHaveBeenCalledWith(el);
    callback([{ isIntersecting: false } as IntersectionObserverEntry], {} as IntersectionObserver);
    expect(run).not.toHaveBeenCalled();
    callback([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver);
    expect(run).toHaveBeenCalledOnce();
    expect(disconnect).toHaveBeenCalled();
  });

  it('runs media islands when their query matches, at once or later', () => {
    const listeners: (() => void)[] = [];
    const mq = { matches: false, addEventListener: (_: string, f: () => void) => listeners.push(f), removeEventListener: vi.fn() };
    const matchMedia = vi.fn(() => mq);
    vi.stubGlobal('matchMedia', matchMedia);
    const run = vi.fn();
    schedule(page('<div data-island="a" data-when="media" data-media="(min-width: 576px)"></div>'), run);
    expect(matchMedia).toHaveBeenCalledWith('(min-width: 576px)');
    expect(run).not.toHaveBeenCalled();
    mq.matches = true;
    listeners.forEach((f) => f());
    expect(run).toHaveBeenCalledOnce();
    expect(mq.removeEventListener).toHaveBeenCalled();
  });
});

describe('start', () => {
  it('mounts the island with its props', async () => {
    const mount = vi.fn();
    const el = page('<div data-island="search-box" data-when="load"></div><script type="application/json" data-island-props>{"keyword":"bed"}</script>');
    await start(el, importersWith('search-box', mount));
    expect(mount).toHaveBeenCalledWith(el, { keyword: 'bed' });
  });

  it('keeps the fallback and fires island-error when mount throws', async () => {
    const errors: unknown[] = [];
    window.addEventListener('island-error', (e) => errors.push((e as CustomEvent).detail), { once: true });
    const el = page('<div data-island="buy-buttons"><a href="/cart">Cart</a></div>');
    await start(
      el,
      importersWith('buy-buttons', () => {
        throw new Error('boom');
      }),
    );
    expect(el.innerHTML).toBe('<a href="/cart">Cart</a>');
    expect(errors).toEqual([{ name: 'buy-buttons', error: new Error('boom') }]);
    expect(console.error).toHaveBeenCalled();
  });

  it('reports an unknown island and bad props without loading anything', async () => {
    const errors: string[] = [];
    const listen = (e: Event) => errors.push((e as CustomEvent<IslandEvents['island-error']>).detail.name);
    window.addEventListener('island-error', listen);
    await start(page('<div data-island="nope"></div>'), {});
    const mount = vi.fn();
    await start(page('<div data-island="a"></div><script data-island-props>{bad</script>'), importersWith('a', mount));
    window.removeEventListener('island-error', listen);
    expect(errors).toEqual(['nope', 'a']);
    expect(mount).not.toHaveBeenCalled();
  });

  it('reloads the page once when a chunk fails to load', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    const failing = { a: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')) };
    const el = page('<div data-island="a"><p>fallback</p></div>');
    await start(el, failing);
    expect(reload).toHaveBeenCalledOnce();
    expect(el.innerHTML).toBe('<p>fallback</p>');
    // The reloaded page fails again: no second reload within 60 s.
    await start(el, failing);
    expect(reload).toHaveBeenCalledOnce();
  });
});

describe('reloadOnce (the chunk-reload guard)', () => {
  it('never reloads twice within 60 s, and again after', () => {
    const reload = vi.fn();
    const t0 = 1_700_000_000_000;
    expect(reloadOnce(reload, t0)).toBe(true);
    expect(sessionStorage.getItem(RELOAD_KEY)).toBe(String(t0));
    expect(reloadOnce(reload, t0 + 1_000)).toBe(false);
    expect(reloadOnce(reload, t0 + RELOAD_GUARD_MS - 1)).toBe(false);
    expect(reload).toHaveBeenCalledOnce();
    expect(reloadOnce(reload, t0 + RELOAD_GUARD_MS)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('does not reload when sessionStorage is unavailable (the guard could not hold)', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    const reload = vi.fn();
    expect(reloadOnce(reload, Date.now())).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });
});

describe('reloadOnce offline', () => {
  it('does not reload while the browser is offline (the chunk could not load either)', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const reload = vi.fn();
    expect(reloadOnce(reload, Date.now())).toBe(false);
    expect(reload).not.toHaveBeenCalled();
    expect(sessionStorage.getItem(RELOAD_KEY)).toBeNull();
  });
});

describe('afterLoad', () => {
  it('imports the after-load chunk only once the page has loaded and the browser is idle', async () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (cb: () => void) => idle.push(cb));
    const w = window as unknown as { afterLoadRan?: number };
    w.afterLoadRan = 0;
    afterLoad('data:text/javascript,window.afterLoadRan++');
    await flush();
    expect(idle).toHaveLength(0);
    window.dispatchEvent(new Event('load'));
    expect(idle).toHaveLength(1);
    expect(w.afterLoadRan).toBe(0);
    idle[0]();
    await vi.waitFor(() => expect(w.afterLoadRan).toBe(1));
  });

  it('ignores a chunk that fails to load', async () => {
    vi.stubGlobal('requestIdleCallback', (cb: () => void) => cb());
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    afterLoad('/assets/gone-1.js');
    window.dispatchEvent(new Event('load'));
    await new Promise((r) => setTimeout(r, 50));
    process.off('unhandledRejection', unhandled);
    expect(unhandled).not.toHaveBeenCalled();
  });
});

describe('boot', () => {
  it('finds every island and mounts each with its own props', async () => {
    document.body.innerHTML =
      '<div data-island="a" data-when="load"></div><script type="application/json" data-island-props>{"n":1}</script>' +
      '<p>text</p><div data-island="b" data-when="load"></div>';
    const a = vi.fn();
    const b = vi.fn();
    boot({ ...importersWith('a', a), ...importersWith('b', b) });
    await flush();
    expect(a).toHaveBeenCalledWith(document.querySelector('[data-island=a]'), { n: 1 });
    expect(b).toHaveBeenCalledWith(document.querySelector('[data-island=b]'), {});
  });

  it('starts a load island at once, and an idle one only after the page has loaded and painted', async () => {
    document.body.innerHTML = '<div data-island="a" data-when="load"></div><div data-island="b" data-when="idle"></div>';
    const ready = vi.spyOn(document, 'readyState', 'get').mockReturnValue('interactive');
    const a = vi.fn();
    const b = vi.fn();
    boot({ ...importersWith('a', a), ...importersWith('b', b) });
    await new Promise((r) => setTimeout(r, 300));
    expect(a).toHaveBeenCalled();
    expect(b).not.toHaveBeenCalled(); // the page is still loading
    ready.mockReturnValue('complete');
    window.dispatchEvent(new Event('load'));
    await vi.waitFor(() => expect(b).toHaveBeenCalled(), { timeout: 4000 });
    ready.mockRestore();
  });
});

describe('afterPaint', () => {
  it('runs after the frame that follows the load event, or at once after a frame when already loaded', async () => {
    const frames = vi.spyOn(window, 'requestAnimationFrame');
    const run = vi.fn();
    afterPaint(run); // jsdom's document has loaded
    await vi.waitFor(() => expect(run).toHaveBeenCalledTimes(1));
    expect(frames).toHaveBeenCalled();
    frames.mockRestore();
  });
});

describe('importersFrom (the build map)', () => {
  it('imports the island chunk, preloads its shared chunks and waits for its CSS', async () => {
    document.head.innerHTML = '';
    const main = 'data:text/javascript,export%20default%20()=>4.2'; // (a dot: taken as a whole name)
    // A bare hash names `<island>-<hash>.css` after the chunk; a name with a dot is taken as is.
    const importers = importersFrom({ s: ['react-1.js'], i: { 'search-box': `${main} 2` } }, '');
    expect(Object.keys(importers)).toEqual(['search-box']);
    let done = false;
    const loading = importers['search-box']().then((m) => {
      done = true;
      return m;
    });
    const preload = document.head.querySelector<HTMLLinkElement>('link[href="react-1.js"]')!;
    const css = document.head.querySelector<HTMLLinkElement>('link[href="search-box-2.css"]')!;
    expect(preload.rel).toBe('modulepreload');
    expect(css.rel).toBe('stylesheet');
    await flush();
    expect(done).toBe(false); // the stylesheet has not loaded yet
    css.dispatchEvent(new Event('load'));
    const mod = await loading;
    expect(mod.default(document.body, {})).toBe(4.2);
    // A second island sharing React adds no second link.
    void importersFrom({ s: ['react-1.js'], i: { b: main } }, '').b();
    expect(document.head.querySelectorAll('link[href="react-1.js"]')).toHaveLength(1);
  });

  it('applies a stylesheet the page preloaded, and adds no second modulepreload', async () => {
    document.head.innerHTML =
      '<link rel="modulepreload" href="react-1.js" fetchpriority="low"><link rel="preload" as="style" href="gallery-3.css" fetchpriority="low">';
    const main = 'data:text/javascript,export%20default%20()=>1.5'; // (a dot: a whole name)
    let done = false;
    const loading = importersFrom({ s: ['react-1.js'], i: { gallery: `${main} 3` } }, '')
      .gallery()
      .then(() => (done = true));
    expect(document.head.querySelectorAll('link[href="react-1.js"]')).toHaveLength(1);
    const sheet = document.head.querySelector<HTMLLinkElement>('link[rel="stylesheet"][href="gallery-3.css"]');
    expect(sheet).not.toBeNull();
    await flush();
    expect(done).toBe(false); // waits for the stylesheet, not for the preload
    sheet!.dispatchEvent(new Event('load'));
    await loading;
    expect(done).toBe(true);
  });
});
