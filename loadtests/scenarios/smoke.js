// The smoke run CI does (scripts/test): every kind of traffic at low rates
// for about 30 s on one stack: browsing, search as you type, a small flash
// spike with its price switch and purge, and checkouts when the cart API is
// there. Same checks and invariants as the full scenarios.
import { sleep } from 'k6';
import { checkout as funnel } from './lib/checkout.js';
import { cartApiPresent } from './lib/common.js';
import { options as base } from './lib/options.js';
export { browse } from './browse.js';
export { search } from './search.js';
export { shop, purgeSale } from './flash.js';
export { handleSummary } from './lib/common.js';

export const options = base(
  {
    browse: { executor: 'constant-vus', exec: 'browse', vus: 10, duration: '30s' },
    search: { executor: 'constant-vus', exec: 'search', vus: 5, duration: '30s' },
    spike: {
      executor: 'ramping-arrival-rate',
      exec: 'shop',
      startRate: 0,
      timeUnit: '1s',
      preAllocatedVUs: 20,
      maxVUs: 100,
      stages: [
        { duration: '5s', target: 100 },
        { duration: '25s', target: 100 },
      ],
    },
    purge: { executor: 'shared-iterations', exec: 'purgeSale', vus: 1, iterations: 1, startTime: '20s' },
    checkout: { executor: 'constant-vus', exec: 'checkout', vus: 3, duration: '30s', gracefulStop: '10s' },
  },
  {
    'http_req_duration{kind:page}': ['p(95)<100', 'p(99)<300'],
    'http_req_duration{kind:api}': ['p(95)<300', 'p(99)<1000'],
    'price_after{kind:api}': ['rate>0.999'],
    // About 70 page reads are judged; before the boundary fixes of 27 Nov
    // (no-store for an outdated file, the staged pages moved in at the
    // boundary) 2 to 5 showed the old price. The full `flash` run asks for 1.
    'price_after{kind:page}': ['rate>0.97'],
    price_before: ['rate>0.999'],
    'cache_hit{kind:page}': ['rate>0.6'],
  },
);

export function setup() {
  return { cart: cartApiPresent() };
}

export function checkout(data) {
  if (!data.cart) return sleep(5);
  funnel({ think: 0.2 });
}
