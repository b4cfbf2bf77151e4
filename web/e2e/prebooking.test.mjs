// Pre-booking with a part payment, as a shopper does it on a phone: pre-book
// a product, check out, choose an advance within the allowed range on the
// payment page, pay it with bKash on the (simulated) bKash page, and read
// the paid and due amounts on the thank-you page and when tracking the order.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PHONE, checkoutAsGuest, data, definition, launch, open, shot } from './lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const taka = (text) => Number((text ?? '').replace(/[^\d]/g, ''));
const formatted = (n) => `৳${n.toLocaleString('en-IN')}`;

test('pre-book a product, pay an advance with bKash, and see paid and due on the thank-you and tracking pages', async () => {
  const product = data.prebooking.find((p) => p.stock >= 2 && p.pre_booking_min_percent < 100);
  assert.ok(product, 'the demo shop has a pre-booking product in stock with a part payment');
  const { context, page, watcher } = await open(browser, PHONE);

  await page.goto(`/product/${product.seo_url}`);
  await page.getByRole('button', { name: 'Compare', exact: true }).waitFor();
  await page.getByRole('button', { name: 'Pre-book now' }).click();
  await page.getByText(/^Pre-booked:/).waitFor();
  await page.goto('/cart');
  await page.getByRole('table').getByText(product.title).waitFor();
  await checkoutAsGuest(page, { name: 'Nasrin Akter', address: 'Flat 3B, Road 7, Uttara', tag: 'prebook' });

  // A pre-booking cannot be paid on delivery; the advance starts at the minimum.
  const advanceField = page.getByLabel('Advance to pay now (taka)');
  await advanceField.waitFor();
  assert.equal(await page.getByLabel('Cash on delivery').count(), 0, 'no cash on delivery for a pre-booking');
  const hint = (await page.locator('#pay-advance-hint').textContent()) ?? '';
  const min = taka(/at least (৳[\d,]+)/.exec(hint)?.[1]);
  assert.equal(Number(await advanceField.inputValue()), min, 'the advance starts at the minimum');
  const total = taka(await definition(page, 'Total'));
  assert.ok(min > 0 && min < total, `a part payment: minimum ${min} of ${total}`);

  // Out of range the box says so at once, before any tap, in lakh-grouped
  // taka, and the summary shows no amount to pay now.
  const sentAdvances = [];
  page.on('request', (r) => r.url().includes('/api/cart/set-paying-amount') && sentAdvances.push(r.postData()));
  const range = `Pay between ${formatted(min)} and ${formatted(total)} now.`;
  for (const typed of ['-1', '999999999']) {
    await advanceField.fill(typed);
    await page.locator('#pay-advance-hint').getByText(range, { exact: true }).waitFor();
    assert.equal(await advanceField.getAttribute('aria-invalid'), 'true');
    assert.equal(await definition(page, 'Pay now'), '—');
  }
  await shot(page, 'prebooking-advance-out-of-range');

  // Too little is refused in the page, with the range, and not sent.
  await advanceField.fill(String(min - 1));
  await page.getByLabel('bKash').check();
  await page.getByLabel('I agree to the terms and conditions').check();
  await page.getByRole('button', { name: 'Pay now' }).click();
  await page.getByText(range).waitFor();
  assert.equal(new URL(page.url()).pathname, '/payment');
  assert.deepEqual(sentAdvances, [], 'no out-of-range advance is sent');

  // A round advance above the minimum: the page shows what is left for delivery.
  const advance = Math.min(total - 1, Math.ceil((min + 1) / 100) * 100);
  await advanceField.fill(String(advance));
  assert.equal(taka(await definition(page, 'Due on delivery')), total - advance);
  await shot(page, 'prebooking-payment', true);
  await page.getByRole('button', { name: 'Pay now' }).click();

  // bKash's page (the simulator): the advance, not the total, then approve.
  await page.waitForURL((u) => u.pathname === '/sim/checkout');
  await page.getByText('Simulated bKash').first().waitFor();
  assert.equal(taka(await page.locator('#amount').textContent()), advance, 'bKash is asked for the advance');
  await shot(page, 'prebooking-bkash');
  await page.getByRole('link', { name: /^Approve/ }).click();

  // Back at the shop: the order is placed, the advance paid, the rest due.
  await page.waitForURL('**/thank-you?**');
  const placed = page.getByText(/Your order \S+ is placed/);
  await placed.waitFor();
  const orderNumber = (await placed.locator('strong').textContent()) ?? '';
  await page.getByText('bKash').first().waitFor();
  assert.equal(taka(await definition(page, 'Paid')), advance);
  assert.equal(taka(await definition(page, 'Due on delivery')), total - advance);
  await shot(page, 'prebooking-thank-you', true);

  // Tracking shows the same money.
  await page.getByRole('link', { name: 'Track this order' }).click();
  await page.waitForURL('**/page/track-order?**');
  await page.getByRole('button', { name: 'Track order' }).click();
  await page.getByRole('heading', { name: `Order ${orderNumber}` }).waitFor();
  assert.equal(taka(await definition(page, 'Total')), total);
  assert.equal(taka(await definition(page, 'Paid')), advance);
  assert.equal(taka(await definition(page, 'Due on delivery')), total - advance);
  await shot(page, 'prebooking-tracking', true);

  watcher.check();
  await context.close();
});
