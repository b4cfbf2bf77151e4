// Helpers for tests: a fake `fetch` that answers JSON by path, and readers
// of the calls it saw.

export interface FakeResponse {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Route = FakeResponse | ((url: URL, init: RequestInit) => FakeResponse | Promise<FakeResponse>);

/** Replaces `fetch` with one answering `routes[pathname]`; returns the vi mock to inspect calls. */
export function mockFetch(routes: Record<string, Route>) {
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(urlOf(input), 'http://shop.test');
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

/** The URL a fetch call was given, as text (a `Request` gives its own). */
export function urlOf(input: RequestInfo | URL): string {
  return input instanceof Request ? input.url : String(input);
}

/** The URL of the n-th fetch call. */
export function calledUrl(fn: ReturnType<typeof mockFetch>, n = 0): URL {
  return new URL(urlOf(fn.mock.calls[n][0]), 'http://shop.test');
}

/** The fetch calls whose URL starts with `path`. */
export function callsTo(fn: ReturnType<typeof mockFetch>, path: string) {
  return fn.mock.calls.filter(([input]) => urlOf(input).startsWith(path));
}

/** The JSON a fetch call sent as its body (`T` names the fields a test reads). */
export function sentJson<T = unknown>(init: RequestInit | undefined): T {
  if (typeof init?.body !== 'string') throw new Error('the call sent no JSON text');
  return JSON.parse(init.body) as T;
}
