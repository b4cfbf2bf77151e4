// Paying online, as a guest on a phone, through the simulated gateways of
// payments-sim ("no real money"): the payment page offers the methods the
// shop has configured (here every one) with cash on delivery chosen by
// default; the shopper pays by card on the simulated SSLCommerz page (whose
// form posts the browser back), by bKash or by Nagad on theirs, and lands on
// the thank-you page with the order paid in full. A payment cancelled on
// bKash's page lands on the failure page, with the cart kept to try again.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PHONE, buyable, checkoutAsGuest, clickAddToCart, definition, launch, open, shot } from './lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const taka = (text) => Number((text ?? '').replace(/[^\d]/g, ''));
/** An amount as a gateway's page writes it (`৳ 2500`, `2500.00`), in taka. */
const amount = (text) => Number((text ?? '').replace(/[^\d.]/g, ''));

/** A guest on a phone with one product in the cart, on the payment page; answers the total. */
async function atPayment(page, skip, tag) {
  const [product] = buyable(1, skip);
  await page.goto(`/product/${product.seo_url}`);
  await clickAddToCart(page);
  await page.getByText(/Added to your cart/).waitFor();
  await page.goto('/cart');
  await page.getByRole('table').getByText(product.title).waitFor();
  await checkoutAsGuest(page, { name: 'Karim Hossain', address: 'House 4, Road 2, Banani', tag });
  await page.getByLabel('Cash on delivery').waitFor();
  return taka(await definition(page, 'To pay'));
}

/** Chooses `method`, agrees to the terms and taps Pay now. */
async function payWith(page, method) {
  await page.getByLabel(method).check();
  await page.getByLabel('I agree to the terms and conditions').check();
  await page.getByRole('button', { name: 'Pay now' }).click();
}

/** The thank-you page after an online payment: placed, and the total paid. */
async function paidInFull(page, total) {
  await page.waitForURL(/\/thank-you\?/, { timeout: 20_000 });
  await page.getByText(/Your order \S+ is placed/).waitFor();
  assert.equal(taka(await definition(page, 'Paid')), total, 'paid in full');
}

test('pay by card through the simulated SSLCommerz page and land on the thank-you page, paid', async () => {
  const { context, page, watcher } = await open(browser, PHONE);
  const total = await atPayment(page, 3, 'card');
  assert.ok(total > 0, 'the amount to pay is shown');

  // Every method here is configured; cash on delivery is the default.
  assert.equal(await page.getByLabel('Cash on delivery').isChecked(), true, 'cash on delivery is chosen by default');
  const shown = await page.getByRole('radio').evaluateAll((els) => els.map((e) => e.value));
  assert.deepEqual(shown, ['cash_on_delivery', 'debitcredit', 'bkash', 'nagad']);
  await payWith(page, 'Card or mobile banking (SSLCommerz)');

  // The card gateway's page (the simulator): the whole amount, then pay.
  await page.waitForURL((u) => u.pathname === '/sim/sslcommerz/pay');
  await page.getByText('Simulated card payment — no real money').waitFor();
  assert.equal(amount(await page.locator('#amount').textContent()), total, 'the gateway is asked for the total');
  await page.getByRole('link', { name: /^Pay/ }).click();

  // Its form brings the browser back; the shop validates and sends it on.
  await paidInFull(page, total);
  await page
    .getByText(/\(Successful\)/)
    .first()
    .waitFor();
  watcher.check();
  await context.close();
});

test('pay by bKash on the simulated bKash page and land on the thank-you page, paid', async () => {
  const { context, page, watcher } = await open(browser, PHONE);
  const total = await atPayment(page, 4, 'bkash');
  await payWith(page, 'bKash');
  await page.waitForURL((u) => u.pathname === '/sim/checkout');
  await page.getByText('Simulated bKash — no real money').first().waitFor();
  assert.equal(amount(await page.locator('#amount').textContent()), total, 'bKash is asked for the total');
  await page.getByRole('link', { name: /^Approve/ }).click();
  await paidInFull(page, total);
  await page.getByText('bKash').first().waitFor();
  watcher.check();
  await context.close();
});

test('pay by Nagad on the simulated Nagad page and land on the thank-you page, paid', async () => {
  const { context, page, watcher } = await open(browser, PHONE);
  const total = await atPayment(page, 5, 'nagad');
  await payWith(page, 'Nagad');
  await page.waitForURL((u) => u.pathname.startsWith('/sim/nagad/checkout/'));
  await page.getByText('Simulated Nagad — no real money').first().waitFor();
  await page.getByRole('link', { name: /^Approve/ }).click();
  await paidInFull(page, total);
  await page.getByText('Nagad').first().waitFor();
  watcher.check();
  await context.close();
});

test('a payment cancelled on bKash’s page says so, and the cart is still there to try again', async () => {
  const { context, page, watcher } = await open(browser, PHONE);
  await atPayment(page, 6, 'bkash-cancel');
  await payWith(page, 'bKash');
  await page.waitForURL((u) => u.pathname === '/sim/checkout');
  // The shop's answer to a cancelled payment is a 4xx the page reports.
  watcher.expect(/\/api\//);
  await page.getByRole('link', { name: 'Cancel' }).click();
  await page.waitForURL((u) => u.pathname === '/fail');
  assert.equal(new URL(page.url()).searchParams.get('reason'), 'cancelled');
  await page.getByText('You cancelled the payment.').waitFor();
  await shot(page, 'payment-cancelled');
  await page.getByRole('link', { name: /cart/i }).first().waitFor();
  await page.goto('/cart');
  await page.getByRole('button', { name: 'Proceed to checkout' }).waitFor();
  watcher.check();
  await context.close();
});
