// The cluster's origin 1 killed (SIGKILL) mid-load and started again
// (scripts/cluster_test.py: origin_killed_under_load), with origin 2 serving
// throughout: unlike the one-origin fault (origin-down.js), nothing may fail
// in any phase. Browsing (pages, cacheable API reads, search suggestions that
// always reach an origin) and checkouts run through edge A (BASE_URL), which
// balances over both origins; every page
// view and API read must answer 200, and every checkout must place its order
// or find the product sold out, with no 5xx to retry. Confirmed orders are
// logged (`ORDER …`) for the test to find, once each, in PostgreSQL.
import { Rate } from 'k6/metrics';
import { checkout as funnel } from './lib/checkout.js';
import { TOTAL, phase } from './lib/faults.js';
import { options as base } from './lib/options.js';
import { apiMiss, apiRead, page } from './lib/traffic.js';
export { handleSummary } from './lib/common.js';

const RATE = Number(__ENV.FAULT_RATE || 40);
const pageOk = new Rate('cluster_page_ok');
const apiOk = new Rate('cluster_api_ok');
const checkoutOk = new Rate('cluster_checkout_ok');

export const options = base(
  {
    traffic: {
      executor: 'constant-arrival-rate',
      exec: 'traffic',
      rate: RATE,
      timeUnit: '1s',
      duration: `${TOTAL}s`,
      preAllocatedVUs: 20,
      maxVUs: 100,
    },
    checkout: {
      executor: 'constant-vus',
      exec: 'checkout',
      vus: Number(__ENV.CHECKOUT_VUS || 3),
      duration: `${TOTAL - 3}s`,
      gracefulStop: '30s',
    },
  },
  {
    http_req_failed: ['rate==0'],
    status_5xx: ['count==0'],
    cluster_page_ok: ['rate==1'],
    cluster_api_ok: ['rate==1'],
    cluster_checkout_ok: ['rate==1'],
    'cluster_page_ok{phase:during}': ['rate==1'],
    checks: ['rate==1'],
  },
);

export function traffic() {
  const ph = phase();
  const r = Math.random();
  if (r < 0.6) {
    pageOk.add(page().status === 200, { phase: ph });
    return;
  }
  const res = r < 0.8 ? apiRead() : apiMiss();
  apiOk.add(res.status === 200, { phase: ph });
}

export function checkout() {
  const started = phase();
  const outcome = funnel({ think: 0.3 });
  checkoutOk.add(outcome === 'placed' || outcome === 'sold_out', { phase: started });
}
