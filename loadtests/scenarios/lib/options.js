// Options every scenario starts from: the trend statistics the summary table
// needs and the thresholds that hold for any run.
export const TREND_STATS = ['avg', 'min', 'med', 'max', 'p(95)', 'p(99)'];

export function options(scenarios, thresholds = {}) {
  return {
    scenarios,
    summaryTrendStats: TREND_STATS,
    discardResponseBodies: false,
    thresholds: Object.fromEntries(
      Object.entries(
        Object.assign(
          {
            http_req_failed: ['rate<0.01'],
            status_500: ['count==0'],
            api_not_json: ['count==0'],
            checks: ['rate>0.99'],
          },
          thresholds,
        ),
      ).filter(([, v]) => v.length > 0), // an empty list drops a default
    ),
  };
}
