// Helpers for tests: a fake `fetch` that answers JSON by path.

export interface FakeResponse {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Route = FakeResponse | ((url: URL, init: RequestInit) => FakeResponse | Promise<FakeResponse>);

/** Replaces `fetch` with one answering `routes[pathname]`; returns the vi mock to inspect calls. */
export function mockFetch(routes: Record<string, Route>) {
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://shop.test');
    const route = routes[url.pathname];
    if (!route) return new Response(JSON.stringify({ success: false, message: 'Not found' }), { status: 404 });
    const r = typeof route === 'function' ? await route(url, init) : route;
    return new Response(JSON.stringify(r.body ?? {}), {
      status: r.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...(r.headers ?? {}) },
    });
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

/** The URL of the n-th fetch call. */
export function calledUrl(fn: ReturnType<typeof mockFetch>, n = 0): URL {
  return new URL(String(fn.mock.calls[n][0]), 'http://shop.test');
}
