// The origin killed (SIGKILL) mid-load for FAULT_FOR seconds, then started
// again (loadtests/run: during_origin_down). While it is down, warm pages must
// keep answering 200 from the edge, every /api answer must be a 200 (cached)
// or a clean JSON 5xx, and checkouts retry their placement with the same
// idempotency key until it goes through: no order is lost or doubled. Once
// it is back, the API answers 200 again.
import { sleep } from 'k6';
import { Rate } from 'k6/metrics';
import { SMOKE, cartApiPresent } from './lib/common.js';
import { checkout as funnel } from './lib/checkout.js';
import { FAULT_AT, FAULT_FOR, TOTAL, cleanApiError, phase } from './lib/faults.js';
import { options as base } from './lib/options.js';
import { apiMiss, apiRead, page } from './lib/traffic.js';
export { handleSummary } from './lib/common.js';

const RATE = Number(__ENV.FAULT_RATE || (SMOKE ? 60 : 300));
const pageOk = new Rate('fault_page_ok');
const apiClean = new Rate('fault_api_clean');
const apiOk = new Rate('fault_api_ok');
// Checkouts by the phase they started in: placed or sold out.
const checkoutOk = new Rate('fault_checkout_ok');

export const options = base(
  {
    traffic: {
      executor: 'constant-arrival-rate',
      exec: 'traffic',
      rate: RATE,
      timeUnit: '1s',
      duration: `${TOTAL}s`,
      preAllocatedVUs: SMOKE ? 20 : 100,
      maxVUs: SMOKE ? 100 : 600,
    },
    checkout: {
      executor: 'constant-vus',
      exec: 'checkout',
      vus: SMOKE ? 2 : 5,
      duration: `${TOTAL - 5}s`,
      gracefulStop: `${FAULT_FOR + 20}s`,
    },
  },
  {
    // 5xx answers are the point while the origin is away: judged per phase instead.
    http_req_failed: [],
    'fault_page_ok{phase:during}': ['rate>0.999'],
    'fault_page_ok{phase:after}': ['rate>0.999'],
    'fault_api_clean{phase:during}': ['rate==1'],
    'fault_api_ok{phase:before}': ['rate>0.999'],
    'fault_api_ok{phase:after}': ['rate>0.999'],
    'fault_checkout_ok{phase:after}': ['rate>0.99'],
    checks: [],
  },
);

export function setup() {
  return { cart: cartApiPresent() };
}

export function traffic() {
  const ph = phase();
  const r = Math.random();
  if (r < 0.6) {
    pageOk.add(page().status === 200, { phase: ph });
    return;
  }
  const res = r < 0.8 ? apiRead() : apiMiss();
  const good = res.status === 200;
  apiOk.add(good, { phase: ph });
  apiClean.add(good || cleanApiError(res), { phase: ph });
}

export function checkout(data) {
  if (!data.cart) return sleep(5);
  const started = phase();
  const outcome = funnel({ think: 0.5, retry5xx: FAULT_FOR + 15 });
  checkoutOk.add(outcome === 'placed' || outcome === 'sold_out', { phase: started });
}
