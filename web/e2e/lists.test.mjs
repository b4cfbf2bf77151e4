// Compare and wishlist through the real UI: a guest compares two products
// side by side, removes one and buys the other from the compare table; the
// wishlist asks a guest to sign in, brings the shopper back to the product,
// then keeps it until removed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buyable, expectCartCount, fill, launch, open } from './lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const badge = (page, name, n) => page.getByRole('link', { name: `${name}, ${n} ${n === 1 ? 'product' : 'products'}` }).waitFor();

test('a guest compares two products, removes one and adds the other to the cart', async () => {
  const { context, page, watcher } = await open(browser);
  const [a, b] = buyable(2, 40);
  for (const [i, p] of [a, b].entries()) {
    await page.goto(`/product/${p.seo_url}`);
    await badge(page, 'Compare', i);
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await page.getByText('Added to compare.').waitFor();
    await badge(page, 'Compare', i + 1);
  }

  await page.getByRole('link', { name: 'Compare now' }).click();
  await page.waitForURL('**/compare');
  const table = page.getByRole('table', { name: 'Products compared' });
  await table.getByRole('link', { name: a.title }).waitFor();
  await table.getByRole('link', { name: b.title }).waitFor();
  const prices = await table
    .getByRole('row', { name: /^Price/ })
    .getByRole('cell')
    .allTextContents();
  assert.equal(prices.length, 2);
  for (const price of prices) assert.match(price, /^৳[\d,]+$/);
  // Each product's buttons stand in its own column, under its name.
  for (const p of [a, b]) {
    const name = await table.getByRole('link', { name: p.title }).boundingBox();
    const add = await page.getByRole('button', { name: `Add ${p.title} to cart` }).boundingBox();
    assert.ok(name && add && Math.abs(add.x - name.x) < 40, `${p.title}: the button (x ${add?.x}) is under its column (x ${name?.x})`);
  }

  await page.getByRole('button', { name: `Remove ${a.title} from compare` }).click();
  await page.getByText(`Removed ${a.title} from compare.`).waitFor();
  await badge(page, 'Compare', 1);
  assert.equal(await table.getByRole('link', { name: a.title }).count(), 0);

  await page.getByRole('button', { name: `Add ${b.title} to cart` }).click();
  await page.getByText(`Added to your cart: ${b.title}.`).waitFor();
  await expectCartCount(page, 1);

  // The list outlives the page: a reload shows the same.
  await page.reload();
  await table.getByRole('link', { name: b.title }).waitFor();
  await badge(page, 'Compare', 1);

  watcher.check();
  await context.close();
});

test('the wishlist asks a guest to sign in, then keeps the product until it is removed', async () => {
  const { context, page, watcher } = await open(browser);
  const [p] = buyable(1, 60);
  await page.goto(`/product/${p.seo_url}`);
  await badge(page, 'Wishlist', 0);

  // A guest has no wishlist: the page says why, and its sign-in link comes back here.
  await page.getByRole('button', { name: 'Wishlist', exact: true }).click();
  await page.getByRole('alert').filter({ hasText: 'Sign in to keep a wishlist.' }).getByRole('link', { name: 'Sign in' }).click();
  await page.waitForURL('**/user/login**');
  await fill(page, 'Email or mobile number', 'demo@example.com');
  await fill(page, 'Password', 'demo-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.pathname === `/product/${p.seo_url}`);

  // The demo shopper's wishlist may hold products from other tests: ask the API,
  // with the page's own sign-in, rather than read the header before it has asked.
  const before = await page.evaluate(async () => {
    const res = await fetch('/api/user/wishlist', { headers: { Authorization: `Bearer ${localStorage.getItem('auth_token')}` } });
    return Object.keys((await res.json()).products ?? {}).length;
  });
  await badge(page, 'Wishlist', before);
  await page.getByRole('button', { name: 'Wishlist', exact: true }).click();
  await page.getByText('Added to your wishlist.').waitFor();
  await badge(page, 'Wishlist', before + 1);

  await page.getByRole('link', { name: 'See wishlist' }).click();
  await page.waitForURL('**/wishlist');
  await page.getByRole('link', { name: p.title }).waitFor();
  await page.getByRole('button', { name: `Remove ${p.title} from the wishlist` }).click();
  await page.getByText(`Removed ${p.title} from your wishlist.`).waitFor();
  await badge(page, 'Wishlist', before);
  assert.equal(await page.getByRole('link', { name: p.title }).count(), 0);

  watcher.check();
  await context.close();
});
