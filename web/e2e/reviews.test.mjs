// Reviews through the real UI: a new shopper buys a product by cash on
// delivery; once the order is delivered (set in the run's database, as the
// shop's staff would) the shopper reviews it on /review with the keyboard's
// star radio group, sees it awaiting the shop's check, edits it, sees the
// edit; once published (again in the database) it is "Published" on /review
// and the product's published reviews (`single-product-review`) carry it
// under the shopper's first name. The e2e stack runs no `generator watch`,
// so the static product page is not re-rendered here: generator/tests/reviews.rs
// checks its HTML and JSON-LD. A guest on /review is asked to sign in.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { buyable, clickAddToCart, email, expectCartCount, fill, launch, mobile, open } from './lib.mjs';

const DB = process.env.E2E_DB ?? '';

/** Runs SQL on the run's SQLite database (the origin keeps it open: wait for its lock). */
function sql(statement) {
  assert.ok(DB, 'E2E_DB is not set: run the tests with web/e2e/run');
  return execFileSync('sqlite3', ['-cmd', '.timeout 10000', DB, statement], { encoding: 'utf8' }).trim();
}

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('a shopper reviews a delivered product, edits the review, and it is published under their first name', async () => {
  const { page, watcher } = await open(browser);
  const [product] = buyable(1, 40);
  const account = { name: 'Rania Sultana', email: email('review'), password: 'teak-chair-and-bed-9' };

  // Sign up.
  await page.goto('/user/registration');
  await fill(page, 'Full name', account.name);
  await fill(page, 'Email', account.email);
  await fill(page, 'Mobile number', mobile(Date.now() + 11));
  await fill(page, 'Emergency contact number', mobile(Date.now() + 17));
  await page.getByLabel('Dhaka', { exact: true }).check();
  await fill(page, 'Password', account.password);
  await fill(page, 'Confirm password', account.password);
  await page.getByLabel(/I accept the\s+terms and conditions/).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL((u) => u.pathname === '/user/profile' && u.search === '?welcome');

  // Nothing delivered yet: nothing to review.
  await page.goto('/review');
  await page.getByText('No delivered products to review yet.').waitFor();
  await page.getByRole('link', { name: 'Browse the shop' }).waitFor();

  // Buy the product, cash on delivery.
  await page.goto(`/product/${product.seo_url}`);
  await clickAddToCart(page);
  await page.getByText(/Added to your cart/).waitFor();
  await expectCartCount(page, 1);
  await page.goto('/cart');
  await page.getByRole('button', { name: 'Proceed to checkout' }).click();
  await page.waitForURL('**/checkout');
  const district = page.getByLabel('District');
  await district.locator('option').nth(1).waitFor({ state: 'attached' });
  await district.selectOption({ index: 1 });
  await fill(page, 'Address', 'House 12, Road 5, Dhanmondi');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.waitForURL('**/payment');
  await page.getByLabel('Cash on delivery').check();
  await page.getByLabel('I agree to the terms and conditions').check();
  await page.getByRole('button', { name: 'Place order' }).click();
  await page.waitForURL('**/thank-you?**');
  const orderNumber = (
    await page
      .getByText(/Your order \S+ is placed/)
      .locator('strong')
      .textContent()
  )?.trim();
  assert.ok(orderNumber, 'the thank-you page names the order');

  // Not delivered yet: the product cannot be reviewed, and the page says why.
  await page.goto(`/product/review/${product.id}`);
  await page.getByText(`Product #${product.id} is not among the products delivered to you`).waitFor();

  // The shop delivers it.
  sql(`UPDATE order_master SET order_status = 'delivered' WHERE order_random = '${orderNumber.replace(/'/g, "''")}'`);

  // On a phone: /review lists it, not reviewed yet.
  await page.setViewportSize({ width: 412, height: 915 });
  await page.goto('/review');
  const item = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: product.title }) });
  await item.getByText('Not reviewed').waitFor();
  await page.screenshot({ path: '/tmp/reviews-list.png', fullPage: true });
  await item.getByRole('button', { name: 'Write a review' }).click();
  const form = page.getByRole('form', { name: `Review of ${product.title}` });

  // Checked before it is sent: stars and at least 10 characters.
  const text = form.getByLabel('Your review');
  await text.fill('Too short');
  await form.getByRole('button', { name: 'Send review' }).click();
  await form.getByText('Choose 1 to 5 stars.').waitFor();
  await form.getByText(/Write at least 10 characters/).waitFor();

  // Stars by keyboard: the radio group takes the arrow keys.
  await form.getByRole('radio', { name: /^1 star/ }).focus();
  await page.keyboard.press('Space');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  assert.equal(await form.getByRole('radio', { name: /^4 stars/ }).isChecked(), true, 'four stars chosen by keyboard');
  const first = 'Solid wood, well finished, and it came on the day promised.';
  await text.fill(first);
  await form.getByText(`${first.length} / 2000 characters`).waitFor();
  await page.screenshot({ path: '/tmp/reviews-form.png', fullPage: true });
  await form.getByRole('button', { name: 'Send review' }).click();
  await page
    .getByRole('status')
    .getByText(/once the shop has checked it/)
    .waitFor();
  await item.getByText('Awaiting check').waitFor();
  await item.getByText(first).waitFor();
  await item.getByRole('img', { name: '4 out of 5 stars' }).waitFor();
  await page.screenshot({ path: '/tmp/reviews-awaiting.png', fullPage: true });

  // Edit it from the account's reviews, which link to /product/review/{id}.
  await page.goto('/user/reviews');
  await page.getByText(first).waitFor();
  await page.getByRole('link', { name: 'Edit review' }).click();
  await page.waitForURL(`**/product/review/${product.id}`);
  const edit = page.getByRole('form', { name: `Review of ${product.title}` });
  assert.equal(await edit.getByLabel('Your review').inputValue(), first);
  await edit.getByRole('radio', { name: /^5 stars/ }).check();
  const second = 'Solid wood, well finished. After a month of use it still looks new.';
  await edit.getByLabel('Your review').fill(second);
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await page
    .getByRole('status')
    .getByText(/Your review is changed/)
    .waitFor();
  const edited = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: product.title }) });
  await edited.getByText(second).waitFor();
  await edited.getByText('Awaiting check').waitFor();
  await edited.getByRole('img', { name: '5 out of 5 stars' }).waitFor();

  // Not on the product until the shop has checked it.
  const published = async () => {
    const res = await page.request.post(`/api/product/single-product-review/${product.id}`, { data: { product_id: product.id, paginate: 50 } });
    assert.equal(res.status(), 200);
    return res.json();
  };
  assert.ok(!(await published()).data.some((r) => r.comment === second), 'an unchecked review is not published');

  // The shop publishes it.
  const changed = sql(
    `UPDATE review SET is_active = 1 WHERE product_id = ${Number(product.id)} AND user_id = (SELECT id FROM app_user WHERE email = '${account.email}'); SELECT changes();`,
  );
  assert.equal(changed, '1');
  await page.goto('/review');
  await edited.getByText('Published').waitFor();
  await page.screenshot({ path: '/tmp/reviews-published.png', fullPage: true });
  const answer = await published();
  assert.equal(answer.status, 1);
  const mine = answer.data.find((r) => r.comment === second);
  assert.ok(mine, 'the published review is among the product’s reviews');
  assert.equal(mine.rating, 5);
  assert.equal(mine.user.name, 'Rania');
  assert.ok(!JSON.stringify(answer).includes(account.email), 'no e-mail in the public answer');
  assert.ok(answer.count >= 1 && answer.average_rating > 0);

  watcher.check();
});

test('a guest on /review is asked to sign in and comes back', async () => {
  const { page, watcher } = await open(browser, { viewport: { width: 412, height: 915 } });
  await page.goto('/review');
  const link = page.getByRole('link', { name: 'sign in' });
  await link.waitFor();
  assert.equal(await link.getAttribute('href'), '/user/login?redirect=%2Freview');
  await page.screenshot({ path: '/tmp/reviews-guest.png', fullPage: true });
  watcher.check();
});
