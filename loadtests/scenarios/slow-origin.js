// A slow origin: loadtests/run stops it (SIGSTOP) for FAULT_FOR seconds, so
// it accepts connections but answers nothing, then lets it go on (SIGCONT).
// The edge runs with --origin-timeout 3 for this run. Expected: warm pages
// stay fast (hits never wait for the origin), calls that need the origin end
// within the timeout as a clean JSON 5xx instead of piling up, and once the
// origin runs again the API answers 200 within seconds.
import { Rate, Trend } from 'k6/metrics';
import { SMOKE } from './lib/common.js';
import { TOTAL, cleanApiError, phase } from './lib/faults.js';
import { options as base } from './lib/options.js';
import { apiMiss, page } from './lib/traffic.js';
export { handleSummary } from './lib/common.js';

const RATE = Number(__ENV.FAULT_RATE || (SMOKE ? 60 : 300));
const TIMEOUT_MS = Number(__ENV.EDGE_ORIGIN_TIMEOUT || 3) * 1000;
const pageOk = new Rate('fault_page_ok');
const pageMs = new Trend('fault_page_ms', true);
const apiMs = new Trend('fault_api_ms', true);
const apiClean = new Rate('fault_api_clean');
const apiOk = new Rate('fault_api_ok');

export const options = base(
  {
    traffic: {
      executor: 'constant-arrival-rate',
      exec: 'traffic',
      rate: RATE,
      timeUnit: '1s',
      duration: `${TOTAL}s`,
      preAllocatedVUs: SMOKE ? 50 : 200,
      maxVUs: SMOKE ? 300 : 1500,
    },
  },
  {
    http_req_failed: [],
    checks: [],
    'fault_page_ok{phase:during}': ['rate>0.999'],
    'fault_page_ms{phase:during}': ['p(95)<50'],
    // Each call ends within the edge's timeout (plus connect and scheduling slack).
    'fault_api_ms{phase:during}': [`max<${TIMEOUT_MS + 1500}`],
    'fault_api_clean{phase:during}': ['rate==1'],
    'fault_api_ok{phase:after}': ['rate>0.999'],
    'fault_api_ms{phase:after}': ['p(95)<100'],
  },
);

export function traffic() {
  const ph = phase();
  if (Math.random() < 0.7) {
    const res = page();
    pageOk.add(res.status === 200, { phase: ph });
    pageMs.add(res.timings.duration, { phase: ph });
  } else {
    const res = apiMiss();
    apiMs.add(res.timings.duration, { phase: ph });
    apiOk.add(res.status === 200, { phase: ph });
    apiClean.add(res.status === 200 || cleanApiError(res), { phase: ph });
  }
}
