#!/usr/bin/env node
// The size budget (ARCHITECTURE.md "Budgets", issue 4): brotli at quality 11
// of every built file in dist/, then three checks that fail the build:
//   - the loader ≤ 1.6 KB: its code and the map of every island's files, which grows
//     with each island (1.5 KB held until the 26th island, the order page, added 3 B too many);
//   - each island's own chunk ≤ 10 KB;
//   - the early Add to cart (written inline into product pages) ≤ 2.25 KB (2 KB until its API client
//     learnt issue 19's 128-bit guest tokens, their renewal on a 400 and the 429 wait: 2,241 B);
//   - the after-load chunk (prefetching, the service worker's registration) ≤ 1.5 KB
//     and the service worker (dist/sw.js, loaded apart from the page) ≤ 3 KB;
//   - a product page's JavaScript ≤ 80 KB: the loader, the early Add to cart, the after-load chunk,
//     React's shared chunk and every chunk the product page's islands load
//     (each counted once).
// Run `npx vite build` first; `npm run check-size` does both.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';

const KB = 1024;
const LOADER_BUDGET = 1.6 * KB;
const ISLAND_BUDGET = 10 * KB;
const PRODUCT_PAGE_BUDGET = 80 * KB;
const AFTER_LOAD_BUDGET = 1.5 * KB;
const SW_BUDGET = 3 * KB;
const EARLY_BUY_BUDGET = 2.25 * KB;
const AFTER_LOAD_KEY = 'src/after-load/index.ts';
const EARLY_BUY_KEY = 'src/early-buy/index.ts';
/** The islands a product page holds (those not built yet are skipped). */
const PRODUCT_PAGE_ISLANDS = [
  'search-box',
  'header-counts',
  'drawer',
  'buy-buttons',
  'product-gallery',
  'product-questions',
  'flash-countdown',
  'advert-modal',
  'loading-bar',
  'online-status',
];

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const manifestPath = join(dist, '.vite/manifest.json');
if (!existsSync(manifestPath)) {
  console.error('check-size: no dist/.vite/manifest.json; run `npx vite build` first');
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));

const sizes = new Map();
function size(file) {
  if (!sizes.has(file)) {
    const raw = readFileSync(join(dist, file));
    const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }).length;
    sizes.set(file, { raw: raw.length, br });
  }
  return sizes.get(file);
}

/** A chunk's file and the files of every chunk it imports, transitively. */
function closure(key, out = new Set()) {
  const entry = manifest[key];
  if (!entry || out.has(entry.file)) return out;
  out.add(entry.file);
  for (const i of entry.imports ?? []) closure(i, out);
  return out;
}

const islandKey = (name) => `src/islands/${name}/index.tsx`;
const failures = [];
const rows = [];
const kindOf = new Map([['sw.js', ['service worker', SW_BUDGET]]]);
for (const [key, entry] of Object.entries(manifest)) {
  const island = key.match(/^src\/islands\/([^/]+)\/index\.tsx$/)?.[1];
  if (key === 'src/loader.ts') kindOf.set(entry.file, ['loader', LOADER_BUDGET]);
  else if (key === AFTER_LOAD_KEY) kindOf.set(entry.file, ['after-load', AFTER_LOAD_BUDGET]);
  else if (key === EARLY_BUY_KEY) kindOf.set(entry.file, ['early add to cart', EARLY_BUY_BUDGET]);
  else if (island) kindOf.set(entry.file, [`island ${island}`, ISLAND_BUDGET]);
  else if (entry.file.endsWith('.css')) kindOf.set(entry.file, ['css', null]);
  else if (!kindOf.has(entry.file)) kindOf.set(entry.file, [/react/.test(entry.file) ? 'React (shared)' : 'shared', null]);
  for (const css of entry.css ?? []) if (!kindOf.has(css)) kindOf.set(css, ['css', null]);
}
for (const file of readdirSync(dist)
  .filter((f) => /\.(js|css)$/.test(f))
  .sort()) {
  const [kind, budget] = kindOf.get(file) ?? ['other', null];
  const { raw, br } = size(file);
  const over = budget !== null && br > budget;
  if (over) failures.push(`${kind} (${file}) is ${br} B brotli, over its ${budget} B budget`);
  rows.push({ file, kind, raw, br, budget, over });
}

if (!existsSync(join(dist, 'sw.js'))) failures.push('no dist/sw.js (scripts/vite-sw.mjs builds it)');
const loaderFile = manifest['src/loader.ts']?.file;
const afterLoadFile = manifest[AFTER_LOAD_KEY]?.file;
const earlyBuyFile = manifest[EARLY_BUY_KEY]?.file;
if (!earlyBuyFile) failures.push(`the manifest has no ${EARLY_BUY_KEY} entry (scripts/vite-sw.mjs builds it)`);
else if (/\bimport\b/.test(readFileSync(join(dist, earlyBuyFile), 'utf8'))) failures.push(`${earlyBuyFile} imports something: it must work alone, inline`);
if (!afterLoadFile) failures.push(`the manifest has no ${AFTER_LOAD_KEY} entry`);
if (!loaderFile) failures.push('the manifest has no src/loader.ts entry');
else {
  // The build plugin (scripts/vite-islands.mjs) must have written every island's chunk into the loader.
  const code = readFileSync(join(dist, loaderFile), 'utf8');
  if (code.includes('__ISLAND_FILES__')) failures.push('the loader still holds its "__ISLAND_FILES__" placeholder');
  if (afterLoadFile && !code.includes(afterLoadFile)) failures.push(`the loader does not load the after-load chunk (${afterLoadFile})`);
  for (const [key, entry] of Object.entries(manifest)) {
    const name = key.match(/^src\/islands\/([^/]+)\/index\.tsx$/)?.[1];
    if (!name) continue;
    const hash = entry.file.startsWith(`${name}-`) ? entry.file.slice(name.length + 1, -3) : entry.file;
    if (!code.includes(`"${name}":"${hash}`) && !code.includes(`"${name}":"${entry.file}`)) failures.push(`the loader does not know ${key} (${entry.file})`);
  }
}
const pageFiles = new Set([loaderFile, earlyBuyFile, afterLoadFile].filter(Boolean));
const present = PRODUCT_PAGE_ISLANDS.filter((n) => manifest[islandKey(n)]);
for (const name of present) closure(islandKey(name), pageFiles);
if (![...pageFiles].some((f) => /react/.test(f))) failures.push('no shared React chunk among the product page files');
const pageTotal = [...pageFiles].reduce((sum, f) => sum + size(f).br, 0);
if (pageTotal > PRODUCT_PAGE_BUDGET) failures.push(`a product page's JavaScript is ${pageTotal} B brotli, over ${PRODUCT_PAGE_BUDGET} B`);

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
console.log(`${pad('file', 34)}${pad('kind', 26)}${lpad('raw B', 9)}${lpad('brotli B', 10)}${lpad('budget B', 10)}`);
for (const r of rows) {
  console.log(`${pad(r.file, 34)}${pad(r.kind, 26)}${lpad(r.raw, 9)}${lpad(r.br, 10)}${lpad(r.budget ?? '', 10)}${r.over ? '  OVER' : ''}`);
}
console.log('');
console.log(`product page JavaScript (loader + early Add to cart + after-load + ${present.join(', ')} + shared chunks):`);
console.log(`  ${[...pageFiles].join(', ')}`);
console.log(`  ${pageTotal} B brotli of ${PRODUCT_PAGE_BUDGET} B budget (${(pageTotal / KB).toFixed(1)} KB)${pageTotal > PRODUCT_PAGE_BUDGET ? '  OVER' : ''}`);
const missing = PRODUCT_PAGE_ISLANDS.filter((n) => !manifest[islandKey(n)]);
if (missing.length) console.log(`  not built yet, not counted: ${missing.join(', ')}`);

if (failures.length) {
  console.error(`\ncheck-size: FAILED\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log('\ncheck-size: all budgets met');
