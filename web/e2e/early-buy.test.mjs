// Add to cart before React has arrived (web/src/early-buy): on a slow link the
// product page's own button must work as soon as the page is there. React's
// chunk is held back, so no island can take over; the fallback's button adds
// the product, says so, and the header's badge counts it. Once React is let
// through, the islands take over and keep what the shopper saw.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buyable, launch, open } from './lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test("the product page's Add to cart works before React has arrived, and the islands keep its outcome", async () => {
  const { context, page, watcher } = await open(browser);
  let release = () => {};
  const released = new Promise((r) => (release = r));
  let held = 0;
  await page.route(/\/assets\/react-[^/]*\.js$/, async (route) => {
    held++;
    await released;
    await route.continue();
  });
  const [product] = buyable(1, 3);
  await page.goto(`/product/${product.seo_url}`);

  // The fallback's button: no island can have taken over (React is held).
  const button = page.getByRole('button', { name: 'Add to cart' });
  await button.click();
  await page.getByRole('link', { name: 'Cart, 1 item' }).waitFor();
  await page.getByText(`Added to your cart: ${product.title}.`).waitFor();
  assert.equal(await page.locator('[data-island="buy-buttons"]').getAttribute('data-live'), null, 'the buy-buttons island had not taken over');
  assert.equal(await page.locator('[data-island="header-counts"]').getAttribute('data-live'), null, 'header-counts had not taken over');
  // Without JavaScript the visitor would see the chat link instead; here it is hidden.
  assert.equal(await page.getByRole('link', { name: 'Order by chat or phone' }).isVisible(), false);

  // React arrives: the islands take over; the badge and the message stay.
  release();
  await page.waitForSelector('[data-island="buy-buttons"][data-live]');
  await page.waitForSelector('[data-island="header-counts"][data-live]');
  assert.ok(held >= 1, "React's chunk was asked for and held");
  await page.getByRole('link', { name: 'Cart, 1 item' }).waitFor();
  await page.getByText(`Added to your cart: ${product.title}.`).waitFor();

  // The cart holds the product once.
  const cart = await page.evaluate(async () => {
    const token = decodeURIComponent(document.cookie.match(/self_token=([^;]+)/)?.[1] ?? '');
    const r = await fetch('/api/cart/view', { headers: { 'SELF-TOKEN': token, Accept: 'application/json' } });
    return r.json();
  });
  assert.deepEqual(
    cart.cart.items.map((l) => [l.info.id, l.qty]),
    [[product.id, 1]],
  );
  watcher.check();
  await context.close();
});
