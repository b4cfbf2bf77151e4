// Smaller details of issue 15, in the browser at phone size (412 px): a
// guest's Wishlist tap says why it needs an account and comes back to the
// product after signing in; the search box has one × control; the password
// forms state one rule; and, with JavaScript off, the product page's
// "360° view" leads to a page (its photos), never to the API's JSON.
// E2E_SHOTS=<dir> saves the screenshots.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { PHONE, buyable, fill, launch, open, shot } from './lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('a guest’s Wishlist tap says why, and signing in comes back to the product', async () => {
  const { context, page, watcher } = await open(browser, PHONE);
  const [p] = buyable(1, 70);
  await page.goto(`/product/${p.seo_url}`);
  await page.getByRole('button', { name: 'Compare', exact: true }).waitFor();
  await page.getByRole('button', { name: 'Wishlist', exact: true }).click();
  const told = page.getByRole('alert').filter({ hasText: 'Sign in to keep a wishlist.' });
  await told.waitFor();
  await told.scrollIntoViewIfNeeded();
  await shot(page, 'wishlist-guest');
  assert.equal(new URL(page.url()).pathname, `/product/${p.seo_url}`, 'the guest stays on the product until choosing to sign in');

  await told.getByRole('link', { name: 'Sign in' }).click();
  await page.waitForURL('**/user/login?redirect=**');
  await fill(page, 'Email or mobile number', 'demo@example.com');
  await fill(page, 'Password', 'demo-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.pathname === `/product/${p.seo_url}`);
  await page.getByRole('button', { name: 'Compare', exact: true }).waitFor();
  await page.getByRole('button', { name: 'Wishlist', exact: true }).click();
  await page.getByText('Added to your wishlist.').waitFor();

  watcher.check();
  await context.close();
});

test('the search box has one × control, which clears the field and closes the suggestions', async () => {
  const { context, page, watcher } = await open(browser, PHONE);
  await page.goto('/');
  const box = page.getByRole('combobox', { name: 'Search products' });
  await box.click();
  await box.pressSequentially('bed', { delay: 0 });
  await page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option').first().waitFor();
  await shot(page, 'search-open');
  const clear = page.getByRole('button', { name: 'Clear search' });
  assert.equal(await clear.count(), 1);
  assert.equal(await page.getByRole('button', { name: /close/i }).count(), 0, 'no second close control');
  // The browser's own clear button of a search field is not drawn.
  // (getComputedStyle cannot read that pseudo-element: the page's own rule for this field is checked.)
  const hidden = await box.evaluate((el) =>
    [...document.styleSheets].some((sheet) =>
      [...sheet.cssRules].some(
        (r) =>
          r instanceof CSSStyleRule &&
          r.selectorText.includes('::-webkit-search-cancel-button') &&
          r.style.display === 'none' &&
          el.matches(r.selectorText.split('::')[0]),
      ),
    ),
  );
  assert.ok(hidden, "the browser's clear button is hidden");
  // The × sits inside the field, at its right end.
  const [field, x] = [await box.boundingBox(), await clear.boundingBox()];
  assert.ok(field && x && x.x >= field.x && x.x + x.width <= field.x + field.width + 1 && x.y >= field.y - 1, 'the × is inside the field');
  await clear.click();
  assert.equal(await box.inputValue(), '');
  await page.getByRole('listbox', { name: 'Suggestions' }).waitFor({ state: 'hidden' });
  assert.equal(await clear.count(), 0, 'nothing to clear, no ×');
  await shot(page, 'search-cleared');
  watcher.check();
  await context.close();
});

test('registration, reset and change password state the same rule', async () => {
  const { context, page, watcher } = await open(browser, PHONE);
  const rule = '8 to 128 characters';
  await page.goto('/user/registration');
  await page.getByText(rule).first().waitFor();
  await fill(page, 'Password', 'short');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByText('A password is 8 to 128 characters.').waitFor();
  await page.getByText('Enter an emergency number: another number we can call if we cannot reach you.').waitFor();
  await page.getByText('A password is 8 to 128 characters.').scrollIntoViewIfNeeded();
  await shot(page, 'password-registration');
  await page.goto('/user/reset_password?token=abc&email=rina%40example.com');
  await page.getByText(rule).first().waitFor();
  await page.goto('/user/login?redirect=%2Fuser%2Fchange-password');
  await fill(page, 'Email or mobile number', 'demo@example.com');
  await fill(page, 'Password', 'demo-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/user/change-password');
  await page.getByText(rule).first().waitFor();
  watcher.check();
  await context.close();
});

test('without JavaScript the 360° view link leads to the product’s photos, not to JSON', async () => {
  const db = process.env.E2E_DB ?? '';
  const seo = execFileSync('python3', [
    '-c',
    'import sqlite3,sys; r = sqlite3.connect(sys.argv[1]).execute("SELECT p.seo_url FROM product p WHERE p.is_active = 1 AND EXISTS (SELECT 1 FROM product_360_frame f WHERE f.product_id = p.id) AND EXISTS (SELECT 1 FROM product_image i WHERE i.product_id = p.id) ORDER BY p.id LIMIT 1").fetchone(); print(r[0] if r else "")',
    db.replace(/^sqlite:/, ''),
  ])
    .toString()
    .trim();
  assert.ok(seo, 'the demo shop has a product with a 360° view');
  const { context, page, watcher } = await open(browser, { ...PHONE, javaScriptEnabled: false });
  await page.goto(`/product/${seo}`);
  const link = page.getByRole('link', { name: '360° view' });
  await link.scrollIntoViewIfNeeded();
  await shot(page, 'view-360-nojs');
  const href = await link.getAttribute('href');
  assert.ok(href && !href.includes('/api/'), `the link (${href}) is not the API's`);
  await link.click();
  assert.equal(new URL(page.url()).pathname, `/product/${seo}`, 'still the product page');
  assert.equal(new URL(page.url()).hash, '#photos');
  const type = await page.evaluate(() => document.contentType);
  assert.equal(type, 'text/html');
  await page.locator('#photos').waitFor();
  assert.ok(await page.locator('#photos').isVisible(), 'the photos are there');
  watcher.check();
  await context.close();
});
