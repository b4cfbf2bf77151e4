// The flash-sale spike: arrivals ramp from 0 to the machine's limit in 10 s
// and hold for 60 s. A sale (loadtests/run: prepare_flash) starts in the
// middle of the hold, so prices switch at a schedule boundary under load; a
// tag purge of the sale's pages follows. Checks: every price read from
// product/info, and from the sale products' pages, is the right one for its
// instant; no 5xx; latency holds.
import { check } from 'k6';
import { Rate, Trend } from 'k6/metrics';
import { DATA, SMOKE, get, json, ok, pick, purge, secs } from './lib/common.js';
import { options as base } from './lib/options.js';
export { handleSummary } from './lib/common.js';

const SALE = JSON.parse(open(__ENV.FLASH_FILE));
const RATE = Number(__ENV.FLASH_RATE || (SMOKE ? 150 : 3000));
const RAMP = SMOKE ? 5 : 10;
const HOLD = SMOKE ? 20 : 60;
// Seconds a cached price may lag the boundary (the edge's clock rounding).
const GRACE = 1.5;

const priceCorrect = new Rate('price_correct');
// The product page's HTML shows the price of its instant too (generator watch
// re-renders sale pages at the boundary).
const pagePriceCorrect = new Rate('price_page_correct');
const priceAfterSwitch = new Rate('price_switched');
const purgeMs = new Trend('purge_ms', true);

export const options = base(
  {
    spike: {
      executor: 'ramping-arrival-rate',
      exec: 'shop',
      startRate: 0,
      timeUnit: '1s',
      preAllocatedVUs: SMOKE ? 20 : 200,
      maxVUs: SMOKE ? 100 : 1500,
      stages: [
        { duration: `${RAMP}s`, target: RATE },
        { duration: `${HOLD}s`, target: RATE },
      ],
      gracefulStop: '5s',
    },
    purge: {
      executor: 'shared-iterations',
      exec: 'purgeSale',
      vus: 1,
      iterations: 1,
      startTime: secs(RAMP + 30, RAMP + 12),
    },
  },
  {
    'http_req_duration{kind:page}': ['p(95)<100', 'p(99)<300'],
    http_req_duration: ['p(95)<250', 'p(99)<1000'],
    price_correct: ['rate>0.999'],
    price_page_correct: SMOKE ? [] : ['rate>0.99'],
    'cache_hit{kind:page}': ['rate>0.85'],
  },
);

function saleItem() {
  return SALE.items[Math.floor(Math.random() * SALE.items.length)];
}

/** `৳42,500`, as generator/src/format.rs writes money. */
const taka = (n) => `৳${String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;

function salePage() {
  const item = saleItem();
  const read = Math.random() < 0.1; // one view in ten reads the price off the page
  const res = get(`/product/${item.seo_url}`, { name: '/product/{sale}', discard: !read });
  ok(res, 'sale product');
  if (!read || res.status !== 200) return;
  const t = Date.now() / 1000;
  if (t >= SALE.starts_at + GRACE) pagePriceCorrect.add(res.body.includes(taka(item.sale)));
  else if (t < SALE.starts_at - GRACE) pagePriceCorrect.add(res.body.includes(taka(item.regular)));
}

function checkPrice(item) {
  const res = get(`/api/product/info?seo_url=${item.seo_url}`, { name: '/api/product/info (sale)' });
  ok(res, 'product info');
  const body = json(res);
  const price = body && body.product ? Number(body.product.product_price_now) : NaN;
  const t = Date.now() / 1000;
  if (t >= SALE.starts_at + GRACE) {
    priceCorrect.add(price === item.sale);
    priceAfterSwitch.add(price === item.sale);
  } else if (t < SALE.starts_at - GRACE) {
    priceCorrect.add(price === item.regular);
  }
}

export function shop() {
  const r = Math.random();
  if (r < 0.35) {
    salePage();
  } else if (r < 0.55) {
    checkPrice(saleItem());
  } else if (r < 0.65) {
    ok(get('/page/flash-sale', { discard: true }), 'flash page');
  } else if (r < 0.75) {
    ok(get('/api/home/flash-sales'), 'flash API');
  } else if (r < 0.85) {
    ok(get('/', { discard: true }), 'home');
  } else {
    ok(get(`/product/${pick(DATA.products).seo_url}`, { name: '/product/{slug}', discard: true }), 'product');
  }
}

export function purgeSale() {
  const tags = ['flash', ...SALE.items.map((i) => `product:${i.id}`)];
  const res = purge({ tags });
  purgeMs.add(res.timings.duration);
  check(res, { 'purge accepted': (r) => r.status >= 200 && r.status < 300 });
  console.log(`purged ${tags.length} tags at ${new Date().toISOString()}: ${res.status} ${res.body}`);
}
