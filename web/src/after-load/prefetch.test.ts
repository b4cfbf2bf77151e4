import { HOVER_MS, MAX_IN_VIEW, MAX_PREFETCHES, prefetchMode, prefetchPage, startPrefetch } from './prefetch';

/** A stand-in IntersectionObserver the test drives: `show(el)` scrolls a link into view. */
class FakeObserver {
  static last: FakeObserver | undefined;
  observed = new Set<Element>();
  constructor(private cb: (entries: { target: Element; isIntersecting: boolean }[]) => void) {
    FakeObserver.last = this;
  }
  observe(el: Element) {
    this.observed.add(el);
  }
  unobserve(el: Element) {
    this.observed.delete(el);
  }
  disconnect() {
    this.observed.clear();
  }
  show(...els: Element[]) {
    this.cb(els.filter((el) => this.observed.has(el)).map((target) => ({ target, isIntersecting: true })));
  }
}

/** A fresh part of the page holding the links (each test's listeners live on its own root). */
let root: HTMLElement;
const links = (...hrefs: string[]) => {
  root.innerHTML = hrefs.map((h, i) => `<a id="l${i}" href="${h}"><span>link ${i}</span></a>`).join('');
  return hrefs.map((_, i) => document.getElementById(`l${i}`)!);
};
const paths = (fn: ReturnType<typeof vi.fn>) => fn.mock.calls.map((c) => new URL(String(c[0])).pathname + new URL(String(c[0])).search);
const fire = (el: Element, type: string) => el.dispatchEvent(new Event(type, { bubbles: true }));

beforeEach(() => {
  FakeObserver.last = undefined;
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  root = document.createElement('div');
  document.body.replaceChildren(root);
  window.history.replaceState(null, '', '/product/this-one');
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('prefetchMode (SPEC.md §9)', () => {
  it('prefetches nothing with data saver or on 2g and slow-2g', () => {
    expect(prefetchMode({ saveData: true, effectiveType: '4g' })).toBe('none');
    expect(prefetchMode({ effectiveType: '2g' })).toBe('none');
    expect(prefetchMode({ effectiveType: 'slow-2g' })).toBe('none');
  });
  it('prefetches links in view on 4g, only pointed-at links on 3g or an unknown link', () => {
    expect(prefetchMode({ effectiveType: '4g', saveData: false })).toBe('all');
    expect(prefetchMode({ effectiveType: '3g' })).toBe('intent');
    expect(prefetchMode(undefined)).toBe('intent');
  });
});

describe('startPrefetch', () => {
  it('on 2g or with data saver: no listener, no observer, no fetch even when a link is touched', () => {
    for (const connection of [{ effectiveType: '2g' }, { effectiveType: 'slow-2g' }, { saveData: true, effectiveType: '4g' }]) {
      const fetchPage = vi.fn();
      const [a] = links('/product/oak-bed');
      expect(startPrefetch({ connection, fetchPage, root })).toBe('none');
      fire(a, 'touchstart');
      expect(FakeObserver.last).toBeUndefined();
      expect(fetchPage).not.toHaveBeenCalled();
    }
  });

  it('on 4g: links coming into view and links touched, hovered or focused', () => {
    vi.useFakeTimers();
    const fetchPage = vi.fn();
    const [view, touched, hovered, focused] = links('/product/in-view', '/c/beds', '/blogs/care', '/page/contact');
    expect(startPrefetch({ connection: { effectiveType: '4g' }, fetchPage, root })).toBe('all');
    FakeObserver.last!.show(view);
    fire(touched.firstElementChild!, 'touchstart');
    fire(hovered, 'mouseover');
    vi.advanceTimersByTime(HOVER_MS);
    fire(focused, 'focusin');
    expect(paths(fetchPage)).toEqual(['/product/in-view', '/c/beds', '/blogs/care', '/page/contact']);
  });

  it('in view: only the links of <main> when the page has one (header and footer only on intent)', () => {
    const fetchPage = vi.fn();
    root.innerHTML = '<header><a id="h" href="/c/products">All</a></header><main><a id="m" href="/product/card">Card</a></main>';
    startPrefetch({ connection: { effectiveType: '4g' }, fetchPage, root });
    const io = FakeObserver.last!;
    expect([...io.observed].map((a) => a.id)).toEqual(['m']);
    io.show(document.getElementById('m')!);
    fire(document.getElementById('h')!, 'touchstart');
    expect(paths(fetchPage)).toEqual(['/product/card', '/c/products']);
  });

  it('a pointer sweeping across a link does not prefetch it', () => {
    vi.useFakeTimers();
    const fetchPage = vi.fn();
    const [a] = links('/product/oak-bed');
    startPrefetch({ connection: { effectiveType: '4g' }, fetchPage, root });
    fire(a, 'mouseover');
    vi.advanceTimersByTime(HOVER_MS - 10);
    fire(a, 'mouseout');
    vi.advanceTimersByTime(1000);
    expect(fetchPage).not.toHaveBeenCalled();
  });

  it('on 3g: only what the visitor points at, never what is merely in view', () => {
    const fetchPage = vi.fn();
    const [a, b] = links('/product/a', '/product/b');
    expect(startPrefetch({ connection: { effectiveType: '3g' }, fetchPage, root })).toBe('intent');
    expect(FakeObserver.last).toBeUndefined();
    fire(b, 'touchstart');
    fire(a, 'mouseover');
    expect(paths(fetchPage)).toEqual(['/product/b']);
  });

  it('skips the API, per-visitor and state-changing links, other sites, files, this page and downloads', () => {
    const fetchPage = vi.fn();
    const els = links(
      '/api/cart/add-to-cart?id=3',
      '/cart',
      '/checkout',
      '/user/orders',
      '/wishlist',
      '/c/products?keyword=sofa',
      'https://elsewhere.test/product/x',
      '/sitemap.xml',
      '/product/this-one#reviews',
      'mailto:hi@shop.test',
      '/product/ok',
    );
    root.insertAdjacentHTML('beforeend', '<a id="dl" href="/product/file" download>x</a><div data-no-prefetch><a id="np" href="/product/no">x</a></div>');
    startPrefetch({ connection: { effectiveType: '4g' }, fetchPage, root });
    const io = FakeObserver.last!;
    expect([...io.observed].map((a) => a.getAttribute('href'))).toEqual(['/product/ok']);
    for (const el of [...els, document.getElementById('dl')!, document.getElementById('np')!]) fire(el, 'touchstart');
    expect(paths(fetchPage)).toEqual(['/product/ok']);
  });

  it(`prefetches at most ${MAX_IN_VIEW} links for being in view and ${MAX_PREFETCHES} in all, each once`, () => {
    const fetchPage = vi.fn();
    const els = links(...Array.from({ length: 12 }, (_, i) => `/product/p${i}`));
    startPrefetch({ connection: { effectiveType: '4g' }, fetchPage, root });
    FakeObserver.last!.show(...els.slice(0, 5));
    expect(fetchPage).toHaveBeenCalledTimes(MAX_IN_VIEW);
    fire(els[0], 'touchstart'); // already fetched
    for (const el of els.slice(5)) fire(el, 'touchstart');
    expect(fetchPage).toHaveBeenCalledTimes(MAX_PREFETCHES);
    expect(new Set(paths(fetchPage)).size).toBe(MAX_PREFETCHES);
  });

  it('reads navigator.connection when not given one', () => {
    vi.stubGlobal('navigator', { ...navigator, connection: { saveData: true } });
    expect(startPrefetch({ fetchPage: vi.fn(), root })).toBe('none');
  });
});

describe('prefetchPage', () => {
  it('adds a <link rel=prefetch> where supported, else fetches at low priority', () => {
    const fetch = vi.fn(() => Promise.resolve(new Response('')));
    vi.stubGlobal('fetch', fetch);
    const supports = vi.spyOn(DOMTokenList.prototype, 'supports').mockReturnValue(true);
    prefetchPage('/product/a');
    expect(document.head.querySelector('link[rel=prefetch]')?.getAttribute('href')).toBe('/product/a');
    supports.mockImplementation(() => {
      throw new TypeError('no supported tokens');
    });
    prefetchPage('/product/b');
    expect(fetch).toHaveBeenCalledWith('/product/b', expect.objectContaining({ priority: 'low', credentials: 'same-origin' }));
  });
});
