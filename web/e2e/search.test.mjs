// Search as shoppers in Bangladesh type it, at phone size (issue 20):
// Banglish and a query no product fully matches in the header's
// suggestions, Bangla script and Banglish on the results page without
// JavaScript. Each walks to the product the shopper meant.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PHONE, launch, open, shot } from './lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Types `words` in the header's box and waits for the suggestions. */
async function suggest(page, words) {
  await page.goto('/');
  const box = page.getByRole('combobox', { name: 'Search products' });
  await box.click();
  await box.pressSequentially(words, { delay: 0 });
  const products = page.getByRole('listbox', { name: 'Suggestions' }).locator('a[role="option"][href^="/product/"]');
  await products.first().waitFor();
  return products;
}

test('"tinjon boshar sofa" (a sofa for three) suggests 3 seater sofas, and the first opens', async () => {
  const { context, page, watcher } = await open(browser, PHONE);
  const products = await suggest(page, 'tinjon boshar sofa');
  const first = (await products.first().innerText()).toLowerCase();
  assert.match(first, /3 seater/, `the first suggestion is a 3 seater: ${first}`);
  assert.match(first, /sofa/);
  await shot(page, 'search-banglish-phone');
  const href = await products.first().getAttribute('href');
  await products.first().click();
  await page.waitForURL((u) => u.pathname === href);
  assert.match((await page.getByRole('heading', { level: 1 }).innerText()).toLowerCase(), /3 seater/);
  watcher.check();
  await context.close();
});

test('"plastic chair" (the shop sells none) says what it shows: chairs', async () => {
  const { context, page, watcher } = await open(browser, PHONE);
  const products = await suggest(page, 'plastic chair');
  await page.getByRole('status').filter({ hasText: 'Showing results for “chair”' }).waitFor();
  for (const text of await products.allInnerTexts()) {
    assert.match(text.toLowerCase(), /chair/, `a chair: ${text}`);
  }
  await shot(page, 'search-relaxed-phone');
  watcher.check();
  await context.close();
});

for (const [keyword, meant, name] of [
  ['পালঙ্ক', /\bbed\b/, 'search-bangla-nojs'],
  ['kacher almari', /showcase/, 'search-kacher-almari-nojs'],
]) {
  test(`without JavaScript, "${keyword}" lists what the shopper means`, async () => {
    const { context, page, watcher } = await open(browser, { ...PHONE, javaScriptEnabled: false });
    const res = await page.goto(`/c/products?keyword=${encodeURIComponent(keyword)}`);
    assert.equal(res?.status(), 200);
    const results = page.locator('main a[href^="/product/"]');
    assert.ok((await results.count()) > 0, `results for "${keyword}"`);
    const first = (await results.first().innerText()).toLowerCase();
    assert.match(first, meant, `the first result for "${keyword}": ${first}`);
    await shot(page, name, true);
    // The shopper opens it.
    const href = await results.first().getAttribute('href');
    await page.goto(href);
    assert.match((await page.getByRole('heading', { level: 1 }).innerText()).toLowerCase(), meant);
    const refusedPreload = /^request failed: GET \S+\/assets\/\S+\.js csp$/;
    watcher.problems.splice(0, Infinity, ...watcher.problems.filter((p) => !refusedPreload.test(p)));
    watcher.check();
    await context.close();
  });
}
