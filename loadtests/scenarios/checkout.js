// The checkout funnel: guests go from an empty cart to a cash-on-delivery
// order (lib/checkout.js), half of them on ten "hot" products with little
// stock (loadtests/run: prepare_checkout), so the shop sells out under load.
// After the run the runner counts oversold units and duplicate orders in the
// database and looks up every confirmed order.
import { cartApiPresent, SMOKE, secs } from './lib/common.js';
import { checkout as funnel } from './lib/checkout.js';
import { options as base } from './lib/options.js';
export { handleSummary } from './lib/common.js';

const VUS = Number(__ENV.CHECKOUT_VUS || (SMOKE ? 5 : 50));

export const options = base(
  {
    checkout: {
      executor: 'ramping-vus',
      exec: 'checkout',
      stages: [
        { duration: secs(10, 3), target: VUS },
        { duration: secs(50, 15), target: VUS },
      ],
      gracefulRampDown: '10s',
      gracefulStop: '10s',
    },
  },
  {
    'http_req_duration{kind:api}': ['p(95)<300', 'p(99)<1000'],
    order_place_ms: ['p(95)<500', 'p(99)<1500'],
    order_same_on_retry: ['rate==1'],
    cart_step_ok: ['rate>0.99'],
    order_placed: ['count>0'],
  },
);

export function setup() {
  if (!cartApiPresent()) throw new Error('the cart API (/api/cart/...) is not in the origin yet');
}

export function checkout() {
  funnel({ think: SMOKE ? 0.1 : 0.5 });
}
