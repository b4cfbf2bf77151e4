// Filters belong to their category (issue 15): the filter panel of a
// category lists only the values its products have, each with its count (as
// `category/filters` answers them); choosing a value and a price range
// shows only products that match (prices checked in range), the URL carries
// the choice, and the same works with JavaScript off (plain links and a GET
// form rendered by the origin). E2E_SHOTS=<dir> saves phone-size screenshots.
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { BASE, PHONE, data, launch, open, shot } from './lib.mjs';

async function api(path) {
  const res = await fetch(`${BASE}${path}`);
  assert.equal(res.status, 200, path);
  return res.json();
}

/** `label (count)` of every value a filters answer offers. */
const offered = (filters) => filters.filters_att.flatMap((a) => a.values.map((v) => `${v.value} (${v.count})`)).sort();

/** The taka price each card on the page shows (the price paid now, before any struck-out one). */
async function cardPrices(page) {
  const texts = await page.locator('main .card .pr').allInnerTexts();
  return texts.map((t) => Number(/৳([\d,]+)/.exec(t)[1].replace(/,/g, '')));
}

let browser, category, base;
const contexts = [];
before(async () => {
  browser = await launch();
  // A category whose panel has values of at least two attributes and a price range.
  for (const slug of data.categories) {
    const filters = await api(`/api/category/filters?seo_url=${slug}`);
    if (filters.filters_att.length >= 2 && filters.price && filters.price.min < filters.price.max) {
      category = slug;
      base = filters;
      break;
    }
  }
  assert.ok(category, 'a category with filters in the demo data');
});
afterEach(async () => {
  while (contexts.length) await contexts.pop().close();
});
after(async () => {
  await browser?.close();
});

/** The value to choose (the first attribute's most common value) and a price range inside what it leaves. */
async function choice() {
  const att = base.filters_att[0];
  const value = [...att.values].sort((a, b) => b.count - a.count)[0];
  const param = `filterby_${att.field_name}`;
  const narrowed = await api(`/api/category/filters?seo_url=${category}&${param}=${value.slug}`);
  const min = narrowed.price.min;
  const max = Math.floor((narrowed.price.min + narrowed.price.max) / 2);
  const listed = await api(`/api/category/products?seo_url=${category}&${param}=${value.slug}&price_min=${min}&price_max=${max}&per_page=60`);
  assert.ok(listed.products.total > 0, 'the choice finds products');
  return { att, value, param, min, max, total: listed.products.total };
}

test('the panel offers only values with products, with counts; a value and a price range narrow the list, in the URL', async () => {
  const { context, page, watcher } = await open(browser, PHONE);
  contexts.push(context);
  await page.goto(`/c/${category}`);
  // The island has taken over when its value links are toggle buttons.
  await page.getByText('Filters', { exact: true }).click();
  const buttons = page.locator('[data-island="category-filters"] [aria-pressed]');
  await buttons.first().waitFor();
  const shown = (await buttons.allInnerTexts()).map((t) => t.trim()).sort();
  assert.deepEqual(shown, offered(base));
  await shot(page, 'filters-open-js');

  const c = await choice();
  await page.getByRole('button', { name: `${c.value.value} (${c.value.count})` }).click();
  await page.waitForURL(new RegExp(`[?&]${c.param}=${c.value.slug}`));
  await page
    .getByRole('status')
    .filter({ hasText: `${c.value.count} product` })
    .waitFor();
  // Nonsense is refused before it goes anywhere.
  await page.getByRole('textbox', { name: 'Min' }).fill(String(c.max + 1));
  await page.getByRole('textbox', { name: 'Max' }).fill(String(c.min));
  await page.getByRole('button', { name: 'Apply price' }).click();
  assert.equal(await page.getByRole('alert').innerText(), 'Min price must not be above max price.');
  assert.doesNotMatch(page.url(), /price_min/);
  await page.getByRole('textbox', { name: 'Min' }).fill(String(c.min));
  await page.getByRole('textbox', { name: 'Max' }).fill(String(c.max));
  await page.getByRole('button', { name: 'Apply price' }).click();
  await page.waitForURL(new RegExp(`price_min=${c.min}&price_max=${c.max}`));
  await page
    .getByRole('status')
    .filter({ hasText: new RegExp(`^${c.total} products?$`) })
    .waitFor();
  const url = new URL(page.url());
  assert.equal(url.searchParams.get(c.param), c.value.slug);
  const prices = await cardPrices(page);
  assert.ok(prices.length > 0);
  for (const price of prices) assert.ok(price >= c.min && price <= c.max, `${price} in ${c.min}..${c.max}`);
  // The cards are the products the API lists for the same query: each has the value.
  const listed = await api(`/api/category/products?seo_url=${category}&${url.searchParams}`);
  const slugs = await page.locator('#listing .card > a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.deepEqual(
    slugs,
    listed.products.data.map((p) => `/product/${p.seo_url}`),
  );
  // The counts now respect the choice: every value offered finds what it says.
  const narrowed = await api(`/api/category/filters?seo_url=${category}&${url.searchParams}`);
  const shownNow = (await buttons.allInnerTexts()).map((t) => t.trim()).sort();
  assert.deepEqual(shownNow, offered(narrowed));
  await shot(page, 'filters-chosen-js');
  watcher.check();
});

test('without JavaScript: value links with counts, and the price form keeps the value', async () => {
  const { context, page, watcher } = await open(browser, { ...PHONE, javaScriptEnabled: false });
  contexts.push(context);
  await page.goto(`/c/${category}`);
  await page.getByText('Filters', { exact: true }).click();
  const links = page.locator('[data-island="category-filters"] ul.chips a');
  const shown = (await links.allInnerTexts()).map((t) => t.trim()).sort();
  assert.deepEqual(shown, offered(base));
  const c = await choice();
  await page.getByRole('link', { name: `${c.value.value} (${c.value.count})` }).click();
  await page.waitForURL(new RegExp(`[?&]${c.param}=${c.value.slug}`));
  await page.getByText('Filters (1)', { exact: true }).click();
  assert.equal(
    await page.getByRole('spinbutton', { name: /Min/ }).getAttribute('placeholder'),
    String((await api(`/api/category/filters?seo_url=${category}&${c.param}=${c.value.slug}`)).price.min),
  );
  await page.getByRole('spinbutton', { name: /Min/ }).fill(String(c.min));
  await page.getByRole('spinbutton', { name: /Max/ }).fill(String(c.max));
  await page.getByRole('button', { name: 'Apply price' }).click();
  await page.waitForURL(/price_max=/);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get(c.param), c.value.slug);
  assert.equal(url.searchParams.get('price_min'), String(c.min));
  assert.equal(url.searchParams.get('price_max'), String(c.max));
  const prices = await cardPrices(page);
  assert.equal(prices.length, Math.min(c.total, 24));
  for (const price of prices) assert.ok(price >= c.min && price <= c.max, `${price} in ${c.min}..${c.max}`);
  const listed = await api(`/api/category/products?seo_url=${category}&${url.searchParams}&sort_by=popularity&per_page=24`);
  const slugs = await page.locator('main .card:has(.pr) > a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.deepEqual(
    slugs,
    listed.products.data.map((p) => `/product/${p.seo_url}`),
  );
  await page.getByText('Filters (3)', { exact: true }).click();
  await shot(page, 'filters-chosen-nojs');
  watcher.check();
});
