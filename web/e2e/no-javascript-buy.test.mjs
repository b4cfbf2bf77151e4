// Buying with JavaScript off, through the edge: a product page's Add to cart
// form, the basic cart (/lite/cart: quantities), checkout by cash on
// delivery, the confirmation, tracking the order by number and mobile with
// its money; signing up, out and in. The per-visitor pages' fallbacks lead
// to the basic pages; those are never cached and keep the visitor in
// HttpOnly cookies. E2E_SHOTS=<dir> saves phone-size screenshots (and
// each page's HTML).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, afterEach, before, beforeEach, test } from 'node:test';
import { TLS_BASE, buyable, email, launch, mobile, open } from './lib.mjs';

const SHOTS = process.env.E2E_SHOTS;
const PHONE = { width: 412, height: 915 };
const TAKA = /৳\d[\d,]*/;

let browser, context, page, watcher;
before(async () => {
  browser = await launch();
});
beforeEach(async () => {
  ({ context, page, watcher } = await open(browser, { javaScriptEnabled: false, viewport: PHONE }));
});
afterEach(async () => {
  await context?.close();
});
after(async () => {
  await browser?.close();
});

async function shot(name, fullPage = true) {
  if (!SHOTS) return;
  await page.screenshot({ path: `${SHOTS}/lite-${name}.png`, fullPage });
  // The page as the browser holds it, for the Nu checker.
  writeFileSync(`${SHOTS}/lite-${name}.html`, await page.content());
}

/**
 * The watcher's check, less the per-visitor shells' module preloads, which a
 * browser running no script refuses (Chromium reports them as blocked by
 * "csp"): nothing a shopper without script misses.
 */
function check() {
  const preload = /^request failed: GET \S+\/assets\/\S+\.js csp$/;
  for (let i = watcher.problems.length - 1; i >= 0; i--) if (preload.test(watcher.problems[i])) watcher.problems.splice(i, 1);
  watcher.check();
}

/** The main content's text. */
const main = () => page.locator('main').innerText();

test('a product is bought by cash on delivery and its order tracked, without JavaScript', async () => {
  const [p] = buyable(1, 2);
  await page.goto(`/product/${p.seo_url}`);
  await page.getByRole('button', { name: 'Add to cart' }).scrollIntoViewIfNeeded();
  await shot('product', false);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await page.waitForURL(/\/lite\/cart\?done=added$/);
  assert.match(await main(), /Added to your cart\./);
  assert.ok((await main()).includes(p.title), 'the cart lists the product');

  // The visitor's token is an HttpOnly, SameSite=Lax cookie for /lite only.
  const cookies = await context.cookies();
  const token = cookies.find((c) => c.name === 'shop_token');
  assert.ok(token, 'the shop set its cookie');
  assert.equal(token.httpOnly, true);
  assert.equal(token.sameSite, 'Lax');
  assert.equal(token.path, '/lite');

  // Never cached: two loads both reach the origin, private, no-store.
  for (let i = 0; i < 2; i++) {
    const res = await page.goto('/lite/cart');
    assert.equal(res.headers()['cache-control'], 'private, no-store');
    assert.notEqual(res.headers()['x-cache'], 'HIT', 'the edge does not serve the cart from its cache');
  }

  // Quantity 2.
  const line = page.locator('main li').filter({ hasText: p.title });
  await line.getByLabel('Quantity').fill('2');
  await line.getByRole('button', { name: 'Update' }).click();
  await page.waitForURL(/done=updated$/);
  assert.equal(await page.locator('main li').filter({ hasText: p.title }).getByLabel('Quantity').inputValue(), '2');
  assert.match(await main(), TAKA);
  await shot('cart');

  // The cart shell's fallback leads to the basic cart, and on to checkout.
  await page.goto('/cart');
  await page.getByRole('link', { name: 'Use the basic cart' }).click();
  await page.waitForURL(/\/lite\/cart$/);
  await page.getByRole('link', { name: /Checkout: cash on delivery/ }).click();
  await page.waitForURL(/\/lite\/checkout$/);
  assert.match(await main(), /Delivery charge/);

  // Sent empty: each field says what it needs, and the typed values stay.
  watcher.expect(/\/lite\/checkout$/);
  await page.getByLabel('Your name').fill('R');
  await page.getByRole('button', { name: /Place order/ }).click();
  await page.getByText('Your name is 3 to 100 characters.').waitFor();
  assert.equal(await page.getByLabel('Your name').inputValue(), 'R');
  assert.equal(await page.getByLabel('Your name').getAttribute('aria-invalid'), 'true');
  assert.match(await main(), /Choose one of the 64 districts\./);
  assert.match(await main(), /You must agree with the terms\./);
  await shot('checkout-errors');

  const phone = mobile();
  await page.getByLabel('Your name').fill('Nasrin Akter');
  await page.getByLabel('Mobile number', { exact: true }).fill(phone);
  await page.getByLabel('Another mobile number (for the delivery man)').fill(mobile(Date.now() + 7));
  await page.getByLabel('District').selectOption('Dhaka');
  await page.getByLabel('Address').fill('House 4, Road 2, Dhanmondi');
  await page.getByRole('checkbox', { name: /I agree/ }).check();
  await shot('checkout');
  await page.getByRole('button', { name: /Place order/ }).click();
  await page.waitForURL(/\/lite\/order\//);
  const said = await page.getByRole('status').innerText();
  const number = /Your order number is (\S+)\./.exec(said)?.[1];
  assert.ok(number, `the confirmation names the order: ${said}`);
  assert.ok((await main()).includes(p.title));
  await shot('order');

  // Track it from the confirmation, and from the track-order shell's fallback.
  await page.getByRole('link', { name: 'Track this order' }).click();
  await page.getByRole('heading', { name: `Order ${number}` }).waitFor();
  await page.goto('/page/track-order');
  await page.getByRole('link', { name: 'Use the basic order tracking' }).click();
  await page.getByLabel('Order number').fill(number);
  await page.getByLabel('Mobile number used for the order').fill(phone);
  await page.getByRole('button', { name: 'Track' }).click();
  await page.getByRole('heading', { name: `Order ${number}` }).waitFor();
  const money = await page.locator('table.sum').innerText();
  for (const row of ['Subtotal', 'Delivery charge', 'Total', 'Paid', 'Due']) {
    assert.match(money, new RegExp(`${row}\\s+৳`), `tracking shows ${row}`);
  }
  assert.match(money, /Paid\s+৳0/);
  await shot('track');

  // The cart is empty after the order.
  await page.goto('/lite/cart');
  assert.match(await main(), /Your cart is empty\./);
  check();
});

test('a shopper signs up, out and in without JavaScript', async () => {
  const address = email('lite');
  const password = 'lite-password-1';
  await page.goto('/user/registration');
  await page.getByRole('link', { name: 'Use the basic sign-up' }).click();
  await page.waitForURL(/\/lite\/register$/);
  await page.getByLabel('Your name').fill('Tanvir Hasan');
  await page.getByLabel('Email', { exact: true }).fill(address);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Password again').fill(password);
  await page.getByRole('checkbox', { name: /I agree/ }).check();
  await shot('register');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(/\/lite\/cart\?done=registered$/);
  assert.match(await main(), /Signed in as Tanvir Hasan\./);
  const auth = (await context.cookies()).find((c) => c.name === 'shop_auth');
  assert.ok(auth?.httpOnly, 'the sign-in token is an HttpOnly cookie');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/lite\/login\?done=signed-out$/);
  assert.match(await main(), /You are signed out\./);
  assert.ok(!(await context.cookies()).some((c) => c.name === 'shop_auth'), 'the sign-in cookie is gone');

  // A wrong password is said so, the login kept; then the right one.
  watcher.expect(/\/lite\/login$/);
  await page.goto('/user/login');
  await page.getByRole('link', { name: 'Use the basic sign-in' }).click();
  await page.getByLabel('Email or mobile number').fill(address);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').waitFor();
  assert.equal(await page.getByLabel('Email or mobile number').inputValue(), address);
  await page.getByLabel('Password').fill(password);
  await shot('login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/lite\/cart\?done=signed-in$/);
  assert.match(await main(), /You are signed in\./);
  assert.match(await main(), /Signed in as Tanvir Hasan\./);
  check();
});

test('over TLS the cookie is Secure', { skip: !TLS_BASE && 'no TLS address' }, async () => {
  const tls = await browser.newContext({ baseURL: TLS_BASE, javaScriptEnabled: false, ignoreHTTPSErrors: true });
  try {
    const tab = await tls.newPage();
    const res = await tab.goto('/lite/login');
    assert.equal(res.status(), 200);
    const token = (await tls.cookies()).find((c) => c.name === 'shop_token');
    assert.equal(token?.secure, true, 'the cookie is Secure over HTTPS');
  } finally {
    await tls.close();
  }
});
