// The soak: ten minutes of mixed traffic (browsing shoppers, search as you
// type, a steady stream of page reads, checkouts, and a purge every 30 s), to
// show that latency, errors and memory (sampled by loadtests/run) stay flat.
import { sleep } from 'k6';
import { DATA, SMOKE, cartApiPresent, pick, purge } from './lib/common.js';
import { checkout as funnel } from './lib/checkout.js';
import { options as base } from './lib/options.js';
import { page } from './lib/traffic.js';
export { browse } from './browse.js';
export { search } from './search.js';
export { handleSummary } from './lib/common.js';

const DURATION = `${SMOKE ? 30 : 600}s`;

export const options = base(
  {
    browse: { executor: 'constant-vus', exec: 'browse', vus: SMOKE ? 10 : 100, duration: DURATION },
    search: { executor: 'constant-vus', exec: 'search', vus: SMOKE ? 5 : 30, duration: DURATION },
    pages: {
      executor: 'constant-arrival-rate',
      exec: 'pages',
      rate: SMOKE ? 30 : 200,
      timeUnit: '1s',
      duration: DURATION,
      preAllocatedVUs: 20,
      maxVUs: 300,
    },
    checkout: { executor: 'constant-vus', exec: 'checkout', vus: SMOKE ? 2 : 4, duration: DURATION },
    purges: {
      executor: 'constant-arrival-rate',
      exec: 'purges',
      rate: 2,
      timeUnit: '1m',
      duration: DURATION,
      preAllocatedVUs: 1,
    },
  },
  {
    'http_req_duration{kind:page}': ['p(95)<50', 'p(99)<200'],
    'http_req_duration{kind:api}': ['p(95)<200', 'p(99)<1000'],
    'cache_hit{kind:page}': ['rate>0.9'],
  },
);

export function setup() {
  return { cart: cartApiPresent() };
}

export function pages() {
  page();
}

export function checkout(data) {
  if (!data.cart) return sleep(5);
  funnel({ think: 1 });
}

export function purges() {
  purge({ tags: [`product:${pick(DATA.products).id}`] });
}
