// Accounts through the real UI: a guest's cart is kept when the guest creates
// an account, and merged again when the shopper later signs in; the account
// pages (profile, orders, wishlist, reviews, address book, password) show the
// shopper's data; a signed-in checkout lists the order under "My orders".
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PHONE, buyable, clickAddToCart, definition, email, expectCartCount, fill, launch, mobile, open, shot, until } from './lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Adds the product at /product/{seo_url} with the page's button; the badge then shows `count`. */
async function addToCart(page, product, count) {
  await page.goto(`/product/${product.seo_url}`);
  await expectCartCount(page, count - 1);
  await clickAddToCart(page);
  await page.getByText(/Added to your cart/).waitFor();
  await expectCartCount(page, count);
}

async function cartTitles(page) {
  await page.goto('/cart');
  await page.getByRole('button', { name: 'Proceed to checkout' }).waitFor();
  return page.getByRole('table').locator('tbody tr').allTextContents();
}

test('registering keeps the guest cart, signing in merges the next guest cart, account pages show the shopper', async () => {
  const { context, page, watcher } = await open(browser);
  const [first, second] = buyable(2, 20);
  const account = { name: 'Karim Hossain', email: email('reg'), password: 'sofa-and-table-7' };

  // A guest puts a product in the cart, then creates an account.
  await addToCart(page, first, 1);
  await page.goto('/user/registration');
  await fill(page, 'Full name', account.name);
  await fill(page, 'Email', account.email);
  await fill(page, 'Mobile number', mobile());
  await fill(page, 'Emergency contact number', mobile(Date.now() + 3));
  await page.getByLabel('Dhaka', { exact: true }).check();
  await fill(page, 'Password', account.password);
  await fill(page, 'Confirm password', account.password);
  await page.getByLabel(/I accept the\s+terms and conditions/).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL((u) => u.pathname === '/user/profile' && u.search === '?welcome');
  await page.getByText('Welcome! Your account is ready and you are signed in.').waitFor();
  await expectCartCount(page, 1);

  // The account pages, signed in.
  // The profile icon opens the account drawer, which links to the profile.
  await page.getByRole('banner').getByRole('link', { name: 'My Profile', exact: true }).click();
  await page.getByRole('navigation', { name: 'Account menu' }).getByRole('link', { name: 'My profile', exact: true }).click();
  await page.waitForURL('**/user/profile');
  await until(() => page.getByLabel('Full name', { exact: true }).inputValue(), account.name, 'the profile shows the name');
  assert.equal(await page.getByLabel('Email', { exact: true }).inputValue(), account.email);
  const menu = page.getByRole('navigation', { name: 'My account' });
  for (const [link, shows] of [
    ['My orders', /You have no orders yet/],
    ['My wishlist', /Your wishlist is empty/],
    ['My reviews', /You have not written a review yet/],
    ['Address book', /No saved addresses yet|, 01\d{9}/],
    ['Change password', /Current password/],
  ]) {
    await menu.getByRole('link', { name: link }).click();
    await page.getByRole('link', { name: link, exact: true }).and(page.locator('[aria-current="page"]')).waitFor();
    await page.getByText(shows).first().waitFor();
  }

  // Sign out: a guest again, with an empty cart; the guest adds another product.
  await menu.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL((u) => u.pathname === '/');
  await expectCartCount(page, 0);
  await addToCart(page, second, 1);

  // Signing in merges that cart into the account's.
  await page.goto('/user/login');
  await fill(page, 'Email or mobile number', account.email);
  await fill(page, 'Password', account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.pathname === '/');
  await expectCartCount(page, 2);
  const rows = await cartTitles(page);
  assert.equal(rows.length, 2, `two lines in the cart: ${rows.join(' | ')}`);
  assert.ok(
    rows.some((r) => r.includes(first.title)),
    `${first.title} in the cart`,
  );
  assert.ok(
    rows.some((r) => r.includes(second.title)),
    `${second.title} in the cart`,
  );

  // A signed-in checkout: name and email come from the account; the order is
  // then listed under My orders.
  await page.getByRole('button', { name: 'Proceed to checkout' }).click();
  await page.waitForURL('**/checkout');
  await until(() => page.getByLabel('Full name', { exact: true }).inputValue(), account.name, 'checkout fills in the name');
  assert.equal(await page.getByLabel('Email for the receipt (optional)', { exact: true }).inputValue(), account.email);
  const district = page.getByLabel('District');
  await district.locator('option').nth(1).waitFor({ state: 'attached' });
  await district.selectOption({ index: 1 });
  await fill(page, 'Address', 'Flat 3B, 14 Lake Road, Gulshan');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.waitForURL('**/payment');
  await page.getByLabel('Cash on delivery').check();
  await page.getByLabel('I agree to the terms and conditions').check();
  await page.getByRole('button', { name: 'Place order' }).click();
  await page.waitForURL('**/thank-you?**');
  const orderNumber = await page
    .getByText(/Your order \S+ is placed/)
    .locator('strong')
    .textContent();
  await expectCartCount(page, 0);
  await page.goto('/user/orders');
  await page.getByText(`Order ${orderNumber}`).waitFor();

  // The order's own page, from the list: its lines, and cash on delivery
  // leaves the whole total due on delivery.
  await page.getByText(`Order ${orderNumber}`).click();
  await page.getByRole('link', { name: 'Order details' }).click();
  await page.waitForURL((u) => u.pathname === '/order');
  await page.getByRole('heading', { name: `Order ${orderNumber}` }).waitFor();
  await page.getByRole('table').getByText(first.title).waitFor();
  const total = await definition(page, 'Total');
  assert.equal(await definition(page, 'Due on delivery'), total);
  await page.goto('/user/orders');
  assert.match(total ?? '', /^৳[\d,]+$/);

  // A wrong password is refused with a message, and nothing else goes wrong.
  await page.getByRole('navigation', { name: 'My account' }).getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL((u) => u.pathname === '/');
  watcher.expect(/\/api\/auth\/login$/);
  await page.goto('/user/login');
  await fill(page, 'Email or mobile number', account.email);
  await fill(page, 'Password', 'not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').first().waitFor();
  assert.equal(new URL(page.url()).pathname, '/user/login');

  watcher.check();
  await context.close();
});

test('the profile keeps the emergency number a signed-in checkout asks for, on a phone', async () => {
  const { context, page, watcher } = await open(browser, PHONE);
  const [product] = buyable(1, 24);
  const account = { name: 'Sumi Begum', email: email('emergency'), mobile: mobile(), emergency: mobile(Date.now() + 5), password: 'teak-bed-and-chair-3' };
  await page.goto('/user/registration');
  await fill(page, 'Full name', account.name);
  await fill(page, 'Email', account.email);
  await fill(page, 'Mobile number', account.mobile);
  await fill(page, 'Emergency contact number', account.emergency);
  await page.getByLabel('Dhaka', { exact: true }).check();
  await fill(page, 'Password', account.password);
  await fill(page, 'Confirm password', account.password);
  await page.getByLabel(/I accept the\s+terms and conditions/).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL((u) => u.pathname === '/user/profile' && u.search === '?welcome');

  // The profile shows the number given at sign-up, and a save (of another field) keeps it.
  const emergency = page.getByLabel('Emergency mobile number', { exact: true });
  await until(() => emergency.inputValue(), account.emergency, 'the profile shows the emergency number');
  await page.getByLabel('Full name', { exact: true }).fill('');
  await fill(page, 'Full name', 'Sumi Akter');
  await page.getByRole('button', { name: 'Save my details' }).click();
  await page.getByRole('status').getByText(/./).first().waitFor();
  await shot(page, 'profile-emergency-number', true);
  await page.reload();
  await until(() => emergency.inputValue(), account.emergency, 'saved, the profile still has it');

  // A signed-in checkout: mobile and emergency number come from the profile.
  await page.goto(`/product/${product.seo_url}`);
  await clickAddToCart(page);
  await page.getByText(/Added to your cart/).waitFor();
  await page.goto('/cart');
  await page.getByRole('button', { name: 'Proceed to checkout' }).click();
  await page.waitForURL('**/checkout');
  await until(() => page.getByLabel('Full name', { exact: true }).inputValue(), 'Sumi Akter', 'checkout fills in the name');
  assert.equal(await page.getByLabel('Mobile number', { exact: true }).inputValue(), account.mobile);
  assert.equal(await page.getByLabel('Emergency mobile number', { exact: true }).inputValue(), account.emergency);
  const district = page.getByLabel('District');
  await district.locator('option').nth(1).waitFor({ state: 'attached' });
  await district.selectOption({ index: 1 });
  await fill(page, 'Address', 'House 3, Road 11, Banani');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.waitForURL('**/payment');
  await page.getByLabel('Cash on delivery').waitFor();

  watcher.check();
  await context.close();
});
