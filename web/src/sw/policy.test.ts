// @vitest-environment node
import {
  cacheFirst,
  MAX_PAGES,
  networkFirst,
  networkOnly,
  OFFLINE_URL,
  PAGES_CACHE,
  precacheList,
  staleCaches,
  staticCache,
  storable,
  strategyFor,
  type CacheLike,
} from './policy';

const ORIGIN = 'https://shop.test';

/** An in-memory Cache (insertion order, as the Cache API keeps it; put moves a key last). */
class MemoryCache implements CacheLike {
  entries = new Map<string, Response>();
  match(key: string) {
    return Promise.resolve(this.entries.get(key)?.clone());
  }
  put(key: string, res: Response) {
    this.entries.delete(key);
    this.entries.set(key, res);
    return Promise.resolve();
  }
  keys() {
    return Promise.resolve([...this.entries.keys()].map((url) => ({ url })));
  }
  delete(key: string) {
    return Promise.resolve(this.entries.delete(key));
  }
}

function req(path: string, init: { method?: string; mode?: string; headers?: Record<string, string> } = {}) {
  return { method: init.method ?? 'GET', url: new URL(path, ORIGIN).href, mode: init.mode, headers: new Headers(init.headers) };
}
const nav = (path: string) => req(path, { mode: 'navigate', headers: { accept: 'text/html' } });

/** A response as the Cache API sees it: `type` is `basic` for this origin. */
function res(body: string, status = 200, headers: Record<string, string> = {}, type = 'basic'): Response {
  const r = new Response(body, { status, headers });
  Object.defineProperty(r, 'type', { value: type });
  return r;
}
const page = (body: string, cc = 'public, max-age=60') => res(body, 200, { 'content-type': 'text/html', 'cache-control': cc });

describe('strategyFor', () => {
  it('answers hashed files cache-first and navigations to public pages network-first', () => {
    expect(strategyFor(req('/assets/loader-abc.js'), ORIGIN)).toBe('asset');
    expect(strategyFor(req('/assets/lib-x.css'), ORIGIN)).toBe('asset');
    expect(strategyFor(nav('/product/oak-bed'), ORIGIN)).toBe('page');
    expect(strategyFor(nav('/'), ORIGIN)).toBe('page');
    expect(strategyFor(req('/c/beds?page=2', { headers: { accept: 'text/html,*/*' } }), ORIGIN)).toBe('page');
  });

  it('answers navigations to per-visitor pages and searches from the network only (never kept)', () => {
    for (const p of ['/cart', '/checkout', '/user/orders', '/compare', '/c/products?keyword=sofa', '/product/a?add-to-cart=1']) {
      expect(strategyFor(nav(p), ORIGIN), p).toBe('online');
    }
  });

  it('leaves the API, other methods, other origins, ranges, images and fetches to the network', () => {
    expect(strategyFor(req('/api/cart/list'), ORIGIN)).toBeNull();
    expect(strategyFor(nav('/api/cart/add-to-cart?id=1'), ORIGIN)).toBeNull();
    expect(strategyFor(nav('/api'), ORIGIN)).toBeNull();
    expect(strategyFor(req('/assets/loader-abc.js', { method: 'POST' }), ORIGIN)).toBeNull();
    expect(strategyFor(req('/product/oak-bed', { method: 'POST', mode: 'navigate' }), ORIGIN)).toBeNull();
    expect(strategyFor(req('https://cdn.test/assets/x.js'), ORIGIN)).toBeNull();
    expect(strategyFor(req('/assets/video-a.mp4', { headers: { range: 'bytes=0-' } }), ORIGIN)).toBeNull();
    for (const p of ['/cart', '/storage/p/1.jpg', '/offline', '/sitemap.xml']) {
      expect(strategyFor(req(p, { headers: { accept: 'text/html' } }), ORIGIN), p).toBeNull();
    }
    expect(strategyFor(req('/product/oak-bed', { headers: { accept: 'application/json' } }), ORIGIN)).toBeNull();
  });
});

describe('storable', () => {
  it('keeps a public 200 and refuses private, no-store, errors, redirects, opaque and Vary: *', () => {
    expect(storable(page('ok'))).toBe(true);
    expect(storable(res('ok'))).toBe(true);
    expect(storable(page('x', 'private, no-store'))).toBe(false);
    expect(storable(page('x', 'no-store'))).toBe(false);
    expect(storable(page('x', 'Private'))).toBe(false);
    expect(storable(res('gone', 404))).toBe(false);
    expect(storable(res('down', 503))).toBe(false);
    expect(storable(res('x', 200, {}, 'opaque'))).toBe(false);
    expect(storable(res('x', 200, { vary: '*' }))).toBe(false);
    const moved = res('x');
    Object.defineProperty(moved, 'redirected', { value: true });
    expect(storable(moved)).toBe(false);
  });
});

describe('caches', () => {
  it('precaches the offline page and this build’s files under /assets/', () => {
    expect(precacheList(['loader-a.js', 'react-b.js'])).toEqual([OFFLINE_URL, '/assets/loader-a.js', '/assets/react-b.js']);
  });

  it('drops the static caches of other versions, keeps the visited pages and other sites’ caches', () => {
    const names = [staticCache('old'), staticCache('new'), PAGES_CACHE, 'shop-pages-v0', 'someone-else'];
    expect(staleCaches(names, 'new')).toEqual([staticCache('old'), 'shop-pages-v0']);
  });
});

describe('cacheFirst', () => {
  it('answers from the cache without the network, and keeps what the network answered', async () => {
    const cache = new MemoryCache();
    const fetch = vi.fn(() => Promise.resolve(res('code')));
    const first = cacheFirst(new Request(`${ORIGIN}/assets/a-1.js`), cache, fetch);
    expect(await (await first.response).text()).toBe('code');
    await first.done;
    const second = cacheFirst(new Request(`${ORIGIN}/assets/a-1.js`), cache, fetch);
    expect(await (await second.response).text()).toBe('code');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('does not keep a failed answer', async () => {
    const cache = new MemoryCache();
    const a = cacheFirst(new Request(`${ORIGIN}/assets/gone-1.js`), cache, () => Promise.resolve(res('nope', 404)));
    expect((await a.response).status).toBe(404);
    await a.done;
    expect(cache.entries.size).toBe(0);
  });
});

describe('networkFirst', () => {
  const offline = () => Promise.resolve(res('offline page'));
  const url = `${ORIGIN}/product/oak-bed`;
  afterEach(() => vi.useRealTimers());

  it('answers from the network and keeps a public page for later', async () => {
    const cache = new MemoryCache();
    const a = networkFirst(new Request(url), cache, offline, () => Promise.resolve(page('fresh')));
    expect(await (await a.response).text()).toBe('fresh');
    await a.done;
    expect(await (await cache.match(url))!.text()).toBe('fresh');
  });

  it('never keeps a private or no-store page', async () => {
    const cache = new MemoryCache();
    const a = networkFirst(new Request(url), cache, offline, () => Promise.resolve(page('mine', 'private, no-store')));
    expect(await (await a.response).text()).toBe('mine');
    await a.done;
    expect(cache.entries.size).toBe(0);
  });

  it('offline: the kept copy of a visited page, else the offline page', async () => {
    const cache = new MemoryCache();
    await cache.put(url, page('kept'));
    const down = () => Promise.reject(new TypeError('Failed to fetch'));
    expect(await (await networkFirst(new Request(url), cache, offline, down).response).text()).toBe('kept');
    const other = networkFirst(new Request(`${ORIGIN}/c/beds`), cache, offline, down);
    expect(await (await other.response).text()).toBe('offline page');
  });

  it('a 5xx answer gives way to the kept copy, and is shown when there is none', async () => {
    const cache = new MemoryCache();
    await cache.put(url, page('kept'));
    const broken = () => Promise.resolve(res('error page', 502));
    expect(await (await networkFirst(new Request(url), cache, offline, broken).response).text()).toBe('kept');
    expect((await networkFirst(new Request(`${ORIGIN}/c/beds`), cache, offline, broken).response).status).toBe(502);
  });

  it('a slow network: the kept copy after the timeout, and the late answer is kept for next time', async () => {
    vi.useFakeTimers();
    const cache = new MemoryCache();
    await cache.put(url, page('kept'));
    let arrive!: (r: Response) => void;
    const slow = () => new Promise<Response>((r) => (arrive = r));
    const a = networkFirst(new Request(url), cache, offline, slow, 3000);
    let answered: Response | undefined;
    void a.response.then((r) => (answered = r));
    await vi.advanceTimersByTimeAsync(2999);
    expect(answered).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(await answered!.text()).toBe('kept');
    arrive(page('late'));
    await a.done;
    expect(await (await cache.match(url))!.text()).toBe('late');
  });

  it('a slow network with no kept copy: waits for it rather than showing the offline page', async () => {
    vi.useFakeTimers();
    let arrive!: (r: Response) => void;
    const a = networkFirst(new Request(url), new MemoryCache(), offline, () => new Promise<Response>((r) => (arrive = r)), 3000);
    let answered: Response | undefined;
    void a.response.then((r) => (answered = r));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(answered).toBeUndefined();
    arrive(page('slow but here'));
    expect(await (await a.response).text()).toBe('slow but here');
  });

  it('a page never kept: the network, else the offline page, and nothing stored', async () => {
    const ok = networkOnly(new Request(`${ORIGIN}/cart`), offline, () => Promise.resolve(page('cart shell')));
    expect(await (await ok.response).text()).toBe('cart shell');
    const down = networkOnly(new Request(`${ORIGIN}/cart`), offline, () => Promise.reject(new TypeError('Failed to fetch')));
    expect(await (await down.response).text()).toBe('offline page');
  });

  it(`keeps at most ${MAX_PAGES} pages, dropping the least recently fetched`, async () => {
    const cache = new MemoryCache();
    for (let i = 0; i <= MAX_PAGES; i++) {
      await networkFirst(new Request(`${ORIGIN}/product/p${i}`), cache, offline, () => Promise.resolve(page(`p${i}`))).done;
    }
    expect(cache.entries.size).toBe(MAX_PAGES);
    expect(cache.entries.has(`${ORIGIN}/product/p0`)).toBe(false);
    expect(cache.entries.has(`${ORIGIN}/product/p${MAX_PAGES}`)).toBe(true);
  });
});
