// A purge storm: while shoppers read warm pages, the admin listener takes a
// stream of tag purges (5 random products each, 50 a second: a quarter of
// the catalogue every two seconds), as a busy catalogue team and the
// generator might send them. A product's tag also reaches the category and
// home pages that list it, so most pages are refilled again and again.
// Expected: no error, page latency holds, purges stay fast, and the hit ratio
// stays above a floor. STORM_SOFT=1 sends soft purges (served stale while
// one request revalidates) for comparison.
import { check } from 'k6';
import { Trend } from 'k6/metrics';
import { DATA, SMOKE, pick, purge } from './lib/common.js';
import { options as base } from './lib/options.js';
import { page } from './lib/traffic.js';
export { handleSummary } from './lib/common.js';

const RATE = Number(__ENV.STORM_RATE || (SMOKE ? 100 : 800));
const PURGES = Number(__ENV.STORM_PURGES || (SMOKE ? 10 : 50));
const DURATION = SMOKE ? 20 : 60;
const purgeMs = new Trend('purge_ms', true);

export const options = base(
  {
    shoppers: {
      executor: 'constant-arrival-rate',
      exec: 'shopper',
      rate: RATE,
      timeUnit: '1s',
      duration: `${DURATION}s`,
      preAllocatedVUs: SMOKE ? 20 : 100,
      maxVUs: SMOKE ? 100 : 600,
    },
    storm: {
      executor: 'constant-arrival-rate',
      exec: 'storm',
      rate: PURGES,
      timeUnit: '1s',
      startTime: '5s',
      duration: `${DURATION - 10}s`,
      preAllocatedVUs: 5,
      maxVUs: 50,
    },
  },
  {
    'http_req_duration{kind:page}': ['p(95)<50', 'p(99)<200'],
    purge_ms: ['p(99)<100'],
    'cache_hit{kind:page}': ['rate>0.3'],
  },
);

export function shopper() {
  check(page(), { 'page 200': (r) => r.status === 200 });
}

export function storm() {
  const tags = [];
  for (let i = 0; i < 5; i++) tags.push(`product:${pick(DATA.products, 1.5).id}`);
  const res = purge({ tags, soft: __ENV.STORM_SOFT === '1' });
  purgeMs.add(res.timings.duration);
  check(res, { 'purge accepted': (r) => r.status >= 200 && r.status < 300 });
}
