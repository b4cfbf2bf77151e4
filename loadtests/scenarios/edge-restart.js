// The edge restarted mid-load (loadtests/run: during_edge_restart stops it
// with SIGTERM, waits for it to exit and starts it again). Its cache lives in
// memory, so it comes back cold. Measured: how long clients are refused, and
// that after the restart everything answers 200 and the hit ratio climbs back
// while the origin absorbs the refill.
import { Rate, Trend } from 'k6/metrics';
import { SMOKE } from './lib/common.js';
import { TOTAL, phase } from './lib/faults.js';
import { options as base } from './lib/options.js';
import { apiRead, page } from './lib/traffic.js';
export { handleSummary } from './lib/common.js';

const RATE = Number(__ENV.FAULT_RATE || (SMOKE ? 60 : 500));
const answered = new Rate('fault_answered');
const pageHit = new Rate('fault_page_hit');
const pageMs = new Trend('fault_page_ms', true);

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
  },
  {
    http_req_failed: [],
    checks: [],
    'fault_answered{phase:before}': ['rate>0.999'],
    'fault_answered{phase:during}': ['rate>=0'],
    'fault_answered{phase:after}': ['rate>0.999'],
    'fault_page_hit{phase:after}': ['rate>0.5'],
    'fault_page_ms{phase:after}': ['p(95)<100'],
  },
);

export function traffic() {
  const ph = phase();
  const isPage = Math.random() < 0.8;
  const res = isPage ? page() : apiRead();
  answered.add(res.status === 200, { phase: ph });
  if (isPage && res.status === 200) {
    pageHit.add(res.headers['X-Cache'] === 'HIT', { phase: ph });
    pageMs.add(res.timings.duration, { phase: ph });
  }
}
