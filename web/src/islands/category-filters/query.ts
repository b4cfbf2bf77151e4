// The listing's state lives in the URL, as the plain links and the price
// form without JavaScript have it: `filterby_<attr>=a|b`, `price_min`,
// `price_max`, `sort_by`, `page`.
export const SORTS: [string, string][] = [
  ['', 'Newest'],
  ['price_asc', 'Price: low to high'],
  ['price_desc', 'Price: high to low'],
  ['title_asc', 'Name: A to Z'],
  ['title_desc', 'Name: Z to A'],
];

/** The chosen values of one parameter (`a|b`). */
export function chosen(q: URLSearchParams, param: string): string[] {
  return (q.get(param) ?? '').split('|').filter(Boolean);
}

/** The query with `slug` toggled in `param`, back to page 1. */
export function toggle(q: URLSearchParams, param: string, slug: string): URLSearchParams {
  const next = new URLSearchParams(q);
  const now = chosen(q, param);
  const values = now.includes(slug) ? now.filter((v) => v !== slug) : [...now, slug];
  if (values.length) next.set(param, values.join('|'));
  else next.delete(param);
  next.delete('page');
  return next;
}

/** The query with another value for `key` (empty removes it); back to page 1 unless it is the page. */
export function withParam(q: URLSearchParams, key: string, value: string): URLSearchParams {
  const next = new URLSearchParams(q);
  if (value) next.set(key, value);
  else next.delete(key);
  if (key !== 'page') next.delete('page');
  if (key === 'page' && value === '1') next.delete('page');
  return next;
}

/** `path` with the query, or the bare path. */
export function href(path: string, q: URLSearchParams): string {
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** What is wrong with a price range as typed (empty is no bound), or ''. */
export function priceProblem(min: string, max: string): { field: 'price_min' | 'price_max'; text: string } | null {
  for (const [field, v] of [
    ['price_min', min],
    ['price_max', max],
  ] as const) {
    if (v.trim() && !/^\d{1,10}$/.test(v.trim())) return { field, text: `${field === 'price_min' ? 'Min' : 'Max'} price must be a whole number of taka.` };
  }
  if (min.trim() && max.trim() && Number(min) > Number(max)) return { field: 'price_min', text: 'Min price must not be above max price.' };
  return null;
}

/** The query with the price range (empty removes a bound), back to page 1. */
export function withPrice(q: URLSearchParams, min: string, max: string): URLSearchParams {
  const next = new URLSearchParams(q);
  for (const [k, v] of [
    ['price_min', min.trim()],
    ['price_max', max.trim()],
  ]) {
    if (v) next.set(k, String(Number(v)));
    else next.delete(k);
  }
  next.delete('page');
  return next;
}
