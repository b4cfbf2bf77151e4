// Mixed shop traffic used by the fault scenarios and the soak: warm pages
// (home, categories, products), cacheable API reads, and search suggestions
// for fresh prefixes (always a trip to the origin).
import { DATA, get, pick } from './common.js';

export function pagePath() {
  const r = Math.random();
  if (r < 0.15) return '/';
  if (r < 0.35) return `/c/${pick(DATA.categories, 1.5)}`;
  return `/product/${pick(DATA.products).seo_url}`;
}

export function page() {
  const path = pagePath();
  return get(path, { name: path === '/' ? '/' : path.replace(/\/[^/]+$/, '/{slug}'), discard: true });
}

/** A cacheable API read (popular products: usually a hit once warm). */
export function apiRead() {
  return get(`/api/product/info?seo_url=${pick(DATA.products, 3).seo_url}`, { name: '/api/product/info' });
}

/** A search suggestion for a prefix nobody asked for yet: an origin request. */
export function apiMiss() {
  const w = DATA.words[Math.floor(Math.random() * DATA.words.length)].toLowerCase();
  const q = `${w.slice(0, 3 + Math.floor(Math.random() * 3))}${Math.random() < 0.5 ? '' : ' ' + Math.random().toString(36).slice(2, 5)}`;
  return get(`/api/common/main-search-product?keyword=${encodeURIComponent(q)}`, {
    name: '/api/common/main-search-product',
  });
}
