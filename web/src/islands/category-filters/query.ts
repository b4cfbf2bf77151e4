// The listing's state lives in the URL, as the plain links without
// JavaScript have it: `filterby_<attr>=a|b`, `sort_by`, `page`.
import type { FilterGroup } from './types';

export const SORTS: [string, string][] = [
  ['', 'Newest'],
  ['price_asc', 'Price: low to high'],
  ['price_desc', 'Price: high to low'],
  ['title_asc', 'Name: A to Z'],
  ['title_desc', 'Name: Z to A'],
];

/** Reads the filter groups from the fallback's `<h2>` + `ul.chips` links. */
export function readGroups(root: Element): FilterGroup[] {
  const groups: FilterGroup[] = [];
  root.querySelectorAll('h2').forEach((h) => {
    const list = h.nextElementSibling;
    if (!list || list.tagName !== 'UL') return;
    let param = '';
    const values: FilterGroup['values'] = [];
    list.querySelectorAll('a[href]').forEach((a) => {
      const url = new URL(a.getAttribute('href')!, 'http://x');
      for (const [k, v] of url.searchParams) {
        if (k.startsWith('filterby_')) {
          param = k;
          values.push({ slug: v, label: a.textContent?.trim() ?? v });
        }
      }
    });
    if (param) groups.push({ label: h.textContent?.trim() ?? param, param, values });
  });
  return groups;
}

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
