// Paying by card, as a guest on a phone: the payment page offers the methods
// the shop has configured (here every one, through the simulated gateways of
// payments-sim) with cash on delivery chosen by default; the shopper picks the
// card, pays on the simulated SSLCommerz page ("no real money"), whose form
// posts the browser back to the shop, and lands on the thank-you page with the
// order paid in full.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PHONE, buyable, checkoutAsGuest, clickAddToCart, definition, launch, open } from './lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const taka = (text) => Number((text ?? '').replace(/[^\d]/g, ''));

test('pay by card through the simulated SSLCommerz page and land on the thank-you page, paid', async () => {
  const [product] = buyable(1, 3);
  const { context, page, watcher } = await open(browser, PHONE);

  await page.goto(`/product/${product.seo_url}`);
  await clickAddToCart(page);
  await page.getByText(/Added to your cart/).waitFor();
  await page.goto('/cart');
  await page.getByRole('table').getByText(product.title).waitFor();
  await checkoutAsGuest(page, { name: 'Karim Hossain', address: 'House 4, Road 2, Banani', tag: 'card' });

  // Every method here is configured; cash on delivery is the default.
  const cod = page.getByLabel('Cash on delivery');
  await cod.waitFor();
  assert.equal(await cod.isChecked(), true, 'cash on delivery is chosen by default');
  const shown = await page.getByRole('radio').evaluateAll((els) => els.map((e) => e.value));
  assert.deepEqual(shown, ['cash_on_delivery', 'debitcredit', 'bkash', 'nagad']);
  const total = taka(await definition(page, 'To pay'));
  assert.ok(total > 0, 'the amount to pay is shown');

  await page.getByLabel('Card or mobile banking (SSLCommerz)').check();
  await page.getByLabel('I agree to the terms and conditions').check();
  await page.getByRole('button', { name: 'Pay now' }).click();

  // The card gateway's page (the simulator): the whole amount, then pay.
  await page.waitForURL((u) => u.pathname === '/sim/sslcommerz/pay');
  await page.getByText('Simulated card payment — no real money').waitFor();
  assert.equal(taka(await page.locator('#amount').textContent()), total * 100, 'the gateway is asked for the total (with .00)');
  await page.getByRole('link', { name: /^Pay/ }).click();

  // Its form brings the browser back; the shop validates and sends it on.
  await page.waitForURL('**/thank-you?**', { timeout: 20_000 });
  const placed = page.getByText(/Your order \S+ is placed/);
  await placed.waitFor();
  await page
    .getByText(/\(Successful\)/)
    .first()
    .waitFor();
  assert.equal(taka(await definition(page, 'Paid')), total, 'paid in full');

  watcher.check();
  await context.close();
});
