// What every scenario shares: the stack's addresses (set by loadtests/run),
// the data exported from the seeded database, one request wrapper that keeps
// the custom metrics, and the summary file the runner reads.
import http from 'k6/http';
import { check } from 'k6';
import { Counter, Rate } from 'k6/metrics';

export const BASE = __ENV.BASE_URL || 'http://127.0.0.1:8080';
export const ADMIN = __ENV.EDGE_ADMIN_URL || 'http://127.0.0.1:9080';
export const SMOKE = __ENV.SMOKE === '1';
export const DATA = JSON.parse(open(__ENV.DATA_FILE));

/** Share of cacheable answers (X-Cache other than BYPASS) served from the cache. */
export const cacheHit = new Rate('cache_hit');
export const status5xx = new Counter('status_5xx');
/** A 500 is a bug leaking out (the edge answers 502/503/504 for its own troubles). */
export const status500 = new Counter('status_500');
/** An /api answer whose body is not JSON (an HTML or empty error page). */
export const apiNotJson = new Counter('api_not_json');

// 4xx answers the scenarios ask for on purpose (out of stock, validation) are
// not failures; every 5xx is.
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 499 }));

/** The kind of URL, as the edge classes routes: page, api, asset or image. */
export function kindOf(path) {
  if (path.startsWith('/api/')) return 'api';
  if (path.startsWith('/storage/')) return 'image';
  if (path.startsWith('/assets/')) return 'asset';
  return 'page';
}

/** Records the metrics of one response. */
export function observe(res, path) {
  const xc = res.headers['X-Cache'];
  if (xc && xc !== 'BYPASS') cacheHit.add(xc === 'HIT' || xc === 'STALE', { kind: kindOf(path) });
  if (res.status >= 500) status5xx.add(1);
  if (res.status === 500) status500.add(1);
  if (path.startsWith('/api/') && res.status !== 0 && res.status !== 304) {
    const ct = res.headers['Content-Type'] || '';
    if (!ct.includes('application/json')) apiNotJson.add(1);
  }
  return res;
}

/**
 * A visitor's identity: a fresh guest token (load-test tokens start with
 * `lt-`), as long as the origin asks (35 characters at least, room for 128
 * random bits: 32 random base-36 characters here).
 */
export function guestToken() {
  const iter = typeof __ITER === "undefined" ? 0 : __ITER;
  let random = "";
  while (random.length < 32) random += Math.random().toString(36).slice(2);
  return `lt-${__VU}-${iter}-${random.slice(0, 32)}`;
}

function headers(token, extra) {
  const h = { 'Accept-Encoding': 'br, gzip' };
  if (token) h['SELF-TOKEN'] = token;
  return Object.assign(h, extra || {});
}

/** GET through the edge; `name` groups URLs in k6's output; `discard` drops the body. */
export function get(path, { token, name, tags, timeout, discard } = {}) {
  const res = http.get(BASE + path, {
    headers: headers(token),
    tags: Object.assign({ name: name || path, kind: kindOf(path) }, tags || {}),
    timeout: timeout || '20s',
    responseType: discard ? 'none' : 'text',
  });
  return observe(res, path);
}

/**
 * POST JSON through the edge. `key`: sent as Idempotency-Key, which lets the
 * edge replay the call on another origin when the first dies mid-request (as
 * the web client does for the placement and the calls that only overwrite the
 * cart, web/src/lib/api.ts).
 */
export function post(path, body, { token, name, tags, timeout, key } = {}) {
  const extra = { 'Content-Type': 'application/json' };
  if (key) extra['Idempotency-Key'] = key;
  const res = http.post(BASE + path, JSON.stringify(body), {
    headers: headers(token, extra),
    tags: Object.assign({ name: name || path, kind: kindOf(path) }, tags || {}),
    timeout: timeout || '20s',
  });
  return observe(res, path);
}

/** The JSON body, or null. */
export function json(res) {
  try {
    return res.json();
  } catch (e) {
    return null;
  }
}

/** A skewed pick: low indexes are popular, as in a real catalogue. */
export function pick(list, skew = 2) {
  return list[Math.floor(list.length * Math.pow(Math.random(), skew))];
}

export function ok(res, what) {
  return check(res, { [`${what}: 200`]: (r) => r.status === 200 });
}

/** Seconds since the run started (the runner exports its start instant). */
export function runSeconds() {
  return Date.now() / 1000 - Number(__ENV.RUN_STARTED_AT || 0);
}

/** Tag purge through the edge's admin listener. */
export function purge(body) {
  return http.post(`${ADMIN}/purge`, JSON.stringify(body), {
    headers: { Authorization: `Bearer ${__ENV.PURGE_TOKEN}`, 'Content-Type': 'application/json' },
    tags: { name: 'admin /purge' },
  });
}

/** Whether the cart API exists yet (it answers anything but a 404). */
export function cartApiPresent() {
  const res = http.get(`${BASE}/api/cart/count-notification`, { headers: headers(guestToken()) });
  const present = res.status !== 404 && res.status !== 0;
  if (!present) console.warn('SKIPPED: the cart API is not in the origin, so no checkouts ran');
  return present;
}

/** The summary the runner turns into its table (loadtests/tool.py report). */
export function handleSummary(data) {
  return { [__ENV.SUMMARY_FILE || 'summary.json']: JSON.stringify(data) };
}

/** Scales a duration in seconds down for --smoke. */
export function secs(full, smoke) {
  return `${SMOKE ? smoke : full}s`;
}
