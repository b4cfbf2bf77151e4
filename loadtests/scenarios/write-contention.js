// SQLite write contention: many shoppers check out at once with no think
// time while an admin tool (loadtests/tool.py contend) holds short write
// transactions on the same file, and others read. Expected: no 500 leaks out
// (a busy database is retried inside the origin, or answered as a clean JSON
// 503), reads are not blocked by writes (WAL), no order is lost, doubled or
// oversold.
import { check, sleep } from 'k6';
import { Rate } from 'k6/metrics';
import { SMOKE, cartApiPresent } from './lib/common.js';
import { checkout as funnel } from './lib/checkout.js';
import { cleanApiError } from './lib/faults.js';
import { options as base } from './lib/options.js';
import { apiMiss } from './lib/traffic.js';
export { handleSummary } from './lib/common.js';

const VUS = Number(__ENV.CONTENTION_VUS || (SMOKE ? 6 : 30));
const DURATION = Number(__ENV.FAULT_FOR || (SMOKE ? 20 : 60));
const readOk = new Rate('fault_read_ok');
const clean = new Rate('fault_api_clean');

export const options = base(
  {
    buyers: {
      executor: 'constant-vus',
      exec: 'buyer',
      vus: VUS,
      duration: `${DURATION}s`,
      gracefulStop: '10s',
    },
    readers: {
      executor: 'constant-arrival-rate',
      exec: 'reader',
      rate: SMOKE ? 30 : 100,
      timeUnit: '1s',
      duration: `${DURATION}s`,
      preAllocatedVUs: 20,
      maxVUs: 200,
    },
  },
  {
    http_req_failed: ['rate<0.05'],
    fault_read_ok: ['rate>0.999'],
    fault_api_clean: ['rate==1'],
    order_same_on_retry: ['rate==1'],
    cart_step_ok: ['rate>0.95'],
    'http_req_duration{kind:api}': ['p(99)<2000'],
  },
);

export function setup() {
  return { cart: cartApiPresent() };
}

export function buyer(data) {
  if (!data.cart) return sleep(5);
  const outcome = funnel({ think: 0, retry5xx: 10 });
  check(outcome, { 'placed or sold out': (o) => o === 'placed' || o === 'sold_out' });
}

export function reader() {
  const res = apiMiss();
  readOk.add(res.status === 200);
  clean.add(res.status < 500 || cleanApiError(res));
}
