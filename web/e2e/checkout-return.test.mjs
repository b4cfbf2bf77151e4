// A guest on a phone, in the cart and back and forth through checkout, as a
// tester walked it: the header's badge counts pieces (three of one product
// are "3 items"); a quantity of 0 in the cart is refused with a word and an
// offer to remove the line; going back from /payment to /checkout finds the
// delivery form filled with what was saved for the cart; and a shopper who
// comes back to another address of the shop (as from a payment gateway,
// which returns to the shop's configured address: the cart, kept by the
// cookie, is there, but not what the browser stored for the first address)
// finds the cart's district and delivery charge, not "Choose a district". E2E_SHOTS=<dir> saves
// phone-size screenshots.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PHONE, TLS_BASE, buyable, clickAddToCart, definition, expectCartCount, fill, launch, mobile, open, shot } from './lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The delivery form's fields as the shopper sees them. */
async function deliveryForm(page) {
  const value = (label) => page.getByLabel(label, { exact: true }).inputValue();
  return {
    name: await value('Full name'),
    mobile: await value('Mobile number'),
    emergency: await value('Emergency mobile number'),
    email: await value('Email for the receipt (optional)'),
    district: await value('District'),
    address: await value('Address'),
  };
}

/** Waits until the checkout form has been filled in by the island (the name is there). */
async function filledCheckout(page, name) {
  await page.waitForURL((u) => u.pathname === '/checkout');
  const field = page.getByLabel('Full name', { exact: true });
  for (const end = Date.now() + 10_000; Date.now() < end && (await field.inputValue()) !== name;) await page.waitForTimeout(100);
  return deliveryForm(page);
}

test('three of one product are 3 items; 0 is refused with a word; back from payment the delivery form is still filled', async () => {
  const { context, page, watcher } = await open(browser, PHONE);
  const [product] = buyable(1, 30);
  await page.goto(`/product/${product.seo_url}`);
  await clickAddToCart(page);
  await page.getByText(/Added to your cart/).waitFor();
  await expectCartCount(page, 1);

  // Three of it in the cart: the badge says 3 items, not 1 (one line).
  await page.goto('/cart');
  const qty = page.getByRole('spinbutton', { name: `Quantity of ${product.title}` });
  await qty.waitFor();
  for (const n of [2, 3]) {
    await page.getByRole('button', { name: `One more ${product.title}` }).click();
    await expectCartCount(page, n);
  }
  assert.equal(await qty.inputValue(), '3');

  // 0 is not put back to 1 without a word: the line keeps 3 and the box says why, with a way out.
  await qty.fill('0');
  await qty.press('Enter');
  const note = page.getByRole('alert').filter({ hasText: 'Quantity must be at least 1.' });
  await note.waitFor();
  await note.getByRole('button', { name: `Remove ${product.title} from the cart` }).waitFor();
  assert.equal(await qty.inputValue(), '3');
  await shot(page, 'cart-quantity-zero');
  await expectCartCount(page, 3);

  // Checkout, then back from the payment page: the form comes back as it was sent.
  await page.getByRole('button', { name: 'Proceed to checkout' }).click();
  await page.waitForURL('**/checkout');
  const sent = {
    name: 'Farzana Haque',
    mobile: mobile(),
    emergency: mobile(Date.now() + 11),
    email: `e2e-return-${Date.now()}@example.com`,
    address: 'House 9, Road 4, Mirpur DOHS',
  };
  await fill(page, 'Full name', sent.name);
  await fill(page, 'Mobile number', sent.mobile);
  await fill(page, 'Emergency mobile number', sent.emergency);
  await fill(page, 'Email for the receipt (optional)', sent.email);
  const district = page.getByLabel('District');
  await district.locator('option').nth(2).waitFor({ state: 'attached' });
  sent.district = (await district.locator('option').nth(2).getAttribute('value')) ?? '';
  await district.selectOption(sent.district);
  await fill(page, 'Address', sent.address);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.waitForURL('**/payment');
  await page.getByRole('link', { name: 'Change the delivery address' }).click();
  assert.deepEqual(await filledCheckout(page, sent.name), sent, 'the form holds what was saved for the cart');
  await shot(page, 'checkout-back-from-payment', true);

  // And with the browser's Back from the payment page.
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.waitForURL('**/payment');
  await page.goBack();
  assert.deepEqual(await filledCheckout(page, sent.name), sent, 'Back finds the form filled too');

  watcher.check();
  await context.close();
});

test('back at another address of the shop, the cart still has the district saved at checkout', async () => {
  assert.ok(TLS_BASE, 'the stack has its TLS listener');
  // The listener's certificate is self-signed: no service worker (Chromium refuses its script there).
  const { context, page, watcher } = await open(browser, { ...PHONE, ignoreHTTPSErrors: true, serviceWorkers: 'block' });
  const [product] = buyable(1, 32);
  await page.goto(`/product/${product.seo_url}`);
  await clickAddToCart(page);
  await page.getByText(/Added to your cart/).waitFor();
  await page.goto('/cart');
  await page.getByRole('button', { name: 'Proceed to checkout' }).click();
  await page.waitForURL('**/checkout');
  await fill(page, 'Full name', 'Nazma Khatun');
  await fill(page, 'Mobile number', mobile());
  await fill(page, 'Emergency mobile number', mobile(Date.now() + 9));
  const district = page.getByLabel('District');
  await district.locator('option').nth(3).waitFor({ state: 'attached' });
  const chosen = (await district.locator('option').nth(3).getAttribute('value')) ?? '';
  await district.selectOption(chosen);
  await fill(page, 'Address', 'House 7, Road 3, Zindabazar');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.waitForURL('**/payment');
  await page.getByLabel('Cash on delivery').waitFor();
  const delivery = await definition(page, 'Delivery');

  // The same host over TLS: the guest's cookie goes there too, the storage of the first address does not.
  await page.goto(`${TLS_BASE}/cart`);
  await page.getByRole('table').getByText(product.title).waitFor();
  const select = page.getByRole('combobox', { name: 'Deliver to (district)' });
  for (let i = 0; i < 50 && (await select.inputValue()) !== chosen; i++) await page.waitForTimeout(100);
  assert.equal(await select.inputValue(), chosen, 'the cart keeps the district');
  for (let i = 0; i < 50 && (await definition(page, 'Delivery')) !== delivery; i++) await page.waitForTimeout(100);
  assert.equal(await definition(page, 'Delivery'), delivery, 'and its delivery charge');
  await shot(page, 'cart-at-another-address', true);
  await page.getByRole('button', { name: 'Proceed to checkout' }).click();
  assert.equal((await filledCheckout(page, 'Nazma Khatun')).district, chosen, 'checkout too');

  watcher.check();
  await context.close();
});

test('after a payment cancelled on bKash’s page, the cart still has its district and delivery charge', async () => {
  const { context, page, watcher } = await open(browser, PHONE);
  const [product] = buyable(1, 31);
  await page.goto(`/product/${product.seo_url}`);
  await clickAddToCart(page);
  await page.getByText(/Added to your cart/).waitFor();
  await page.goto('/cart');
  await page.getByRole('table').getByText(product.title).waitFor();
  // The district is chosen at checkout (the first on the list), not on the cart page.
  await page.getByRole('button', { name: 'Proceed to checkout' }).click();
  await page.waitForURL('**/checkout');
  await fill(page, 'Full name', 'Selina Parvin');
  await fill(page, 'Mobile number', mobile());
  await fill(page, 'Emergency mobile number', mobile(Date.now() + 5));
  const district = page.getByLabel('District');
  await district.locator('option').nth(1).waitFor({ state: 'attached' });
  const chosen = (await district.locator('option').nth(1).getAttribute('value')) ?? '';
  await district.selectOption(chosen);
  await fill(page, 'Address', 'House 2, Road 8, Gulshan 1');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.waitForURL('**/payment');
  await page.getByLabel('bKash').waitFor();
  const delivery = await definition(page, 'Delivery');
  assert.match(delivery ?? '', /^৳[\d,]+$/);

  // bKash's page: cancel. The shop's answer to it is a 4xx the page reports.
  await page.getByLabel('bKash').check();
  await page.getByLabel('I agree to the terms and conditions').check();
  await page.getByRole('button', { name: 'Pay now' }).click();
  await page.waitForURL((u) => u.pathname === '/sim/checkout');
  watcher.expect(/\/api\//);
  await page.getByRole('link', { name: 'Cancel' }).click();
  await page.waitForURL((u) => u.pathname === '/fail');
  await page.getByText('You cancelled the payment.').waitFor();

  // Back to the cart: the district and its charge are there, not "Choose a district".
  await page.getByRole('link', { name: 'Back to your cart' }).click();
  await page.waitForURL('**/cart');
  const select = page.getByRole('combobox', { name: 'Deliver to (district)' });
  await select.waitFor();
  await page.locator('dt', { hasText: /^Delivery$/ }).waitFor();
  for (let i = 0; i < 50 && (await definition(page, 'Delivery')) !== delivery; i++) await page.waitForTimeout(100);
  assert.equal(await select.inputValue(), chosen, 'the cart keeps the district');
  assert.equal(await definition(page, 'Delivery'), delivery, 'and its delivery charge');
  await shot(page, 'cart-after-cancelled-payment', true);

  // Try again from the cart: checkout still holds the address, the payment page the charge.
  await page.getByRole('button', { name: 'Proceed to checkout' }).click();
  assert.equal((await filledCheckout(page, 'Selina Parvin')).district, chosen);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.waitForURL('**/payment');
  await page.getByLabel('bKash').waitFor();
  assert.equal(await definition(page, 'Delivery'), delivery);

  watcher.check();
  await context.close();
});
