// Browsing: home → a category → a product, with think time between pages,
// as shoppers do. Each page is its HTML through the edge; the product page
// also asks for what its islands fetch on load, and every page the header's
// counts (cart/count-notification, per visitor: always the origin) once the
// cart API exists.
import { sleep } from 'k6';
import { DATA, SMOKE, cartApiPresent, get, guestToken, ok, pick, secs } from './lib/common.js';
import { options as base } from './lib/options.js';
export { handleSummary } from './lib/common.js';

const VUS = Number(__ENV.BROWSE_VUS || (SMOKE ? 20 : 300));

export const options = base(
  {
    browse: {
      executor: 'ramping-vus',
      exec: 'browse',
      stages: [
        { duration: secs(10, 3), target: VUS },
        { duration: secs(50, 12), target: VUS },
      ],
      gracefulRampDown: '5s',
      gracefulStop: '5s',
    },
  },
  {
    'http_req_duration{kind:page}': ['p(95)<200', 'p(99)<500'],
    'cache_hit{kind:page}': ['rate>0.95'],
  },
);

const think = () => sleep(SMOKE ? 0.2 + Math.random() * 0.3 : 1 + Math.random() * 2);

export function setup() {
  return { cart: cartApiPresent() };
}

let token;
function counts(data) {
  if (!data || !data.cart) return;
  token = token || guestToken();
  ok(get('/api/cart/count-notification', { token }), 'counts');
}

export function browse(data) {
  ok(get('/', { discard: true }), 'home');
  counts(data);
  think();
  const category = pick(DATA.categories, 1.5);
  ok(get(`/c/${category}`, { name: '/c/{slug}', discard: true }), 'category');
  counts(data);
  think();
  const p = pick(DATA.products);
  ok(get(`/product/${p.seo_url}`, { name: '/product/{slug}', discard: true }), 'product');
  counts(data);
  ok(get(`/api/product/similar-products?seo_url=${p.seo_url}`, { name: '/api/product/similar-products' }), 'similar');
  think();
}
