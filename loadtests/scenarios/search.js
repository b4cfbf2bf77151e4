// Search as you type: a shopper types a word letter by letter; the search box
// asks for suggestions (main-search-product) after each pause, then submits
// to the listing (/c/products?keyword=).
import { sleep } from 'k6';
import { Trend } from 'k6/metrics';
import { DATA, SMOKE, get, json, ok, secs } from './lib/common.js';
import { options as base } from './lib/options.js';
export { handleSummary } from './lib/common.js';

const VUS = Number(__ENV.SEARCH_VUS || (SMOKE ? 10 : 100));
const suggest = new Trend('search_suggest_ms', true);

export const options = base(
  {
    search: {
      executor: 'ramping-vus',
      exec: 'search',
      stages: [
        { duration: secs(10, 3), target: VUS },
        { duration: secs(50, 12), target: VUS },
      ],
      gracefulRampDown: '5s',
      gracefulStop: '5s',
    },
  },
  {
    search_suggest_ms: ['p(95)<100', 'p(99)<250'],
  },
);

export function search() {
  const word = DATA.words[Math.floor(Math.random() * DATA.words.length)].toLowerCase();
  for (let n = 2; n <= Math.min(word.length, 8); n++) {
    const prefix = word.slice(0, n);
    const res = get(`/api/common/main-search-product?keyword=${encodeURIComponent(prefix)}`, {
      name: '/api/common/main-search-product'
    });
    suggest.add(res.timings.duration);
    ok(res, 'suggestions');
    const body = json(res);
    if (body && Array.isArray(body.search) && body.search.length === 0 && n > 4) break;
    sleep(SMOKE ? 0.1 : 0.3 + Math.random() * 0.4);
  }
  ok(get(`/c/products?keyword=${encodeURIComponent(word)}`, { name: '/c/products?keyword' }), 'results');
  sleep(SMOKE ? 0.3 : 1 + Math.random() * 2);
}
