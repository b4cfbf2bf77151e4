// A guest's whole purchase, through the real UI: browse from the home page to
// a category, search with a typo, open a product from the suggestions, add it
// to the cart, check out as a guest with cash on delivery, read the order
// number on the thank-you page and track the order with it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE, checkoutAsGuest, clickAddToCart, data, definition, expectCartCount, launch, mobile, open } from './lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A word of the title with two inner letters swapped ("Wardrobe" → "Wadrrobe"). */
function typo(word) {
  const i = Math.floor(word.length / 2) - 1;
  return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
}

const buyableUrls = new Set(data.buyable.filter((p) => p.stock >= 5).map((p) => `/product/${p.seo_url}`));

test('browse, search with a typo, add to cart, check out with cash on delivery, track the order', async () => {
  const { context, page, watcher } = await open(browser);

  // Browse: the home page, then a category from the main navigation.
  await page.goto('/');
  await expectCartCount(page, 0);
  const nav = page.getByRole('navigation', { name: 'Main' });
  const category = nav.getByRole('link').first();
  const categoryName = (await category.textContent())?.trim();
  await category.click();
  await page.waitForURL(/\/c\//);
  assert.ok(categoryName, 'the main navigation has a category');
  await page
    .locator('main')
    .getByText(/৳[\d,]+/)
    .first()
    .waitFor();

  // Search with a typo, as typed into the header's box; the suggestions
  // still find products, and one of them is bought.
  const word = data.buyable.flatMap((p) => p.title.split(/\s+/)).find((w) => /^[A-Za-z]{6,}$/.test(w));
  assert.ok(word, 'a long enough word in a product title');
  const box = page.getByRole('combobox', { name: 'Search products' });
  await box.click();
  await box.pressSequentially(typo(word).toLowerCase(), { delay: 30 });
  const options = page.getByRole('option');
  await options.first().waitFor();
  const hrefs = await options.evaluateAll((els) => els.map((a) => a.getAttribute('href')));
  const pick = hrefs.find((h) => h && buyableUrls.has(new URL(h, 'http://x').pathname));
  assert.ok(pick, `a buyable product among the suggestions for "${typo(word)}": ${hrefs.join(', ')}`);
  await page.locator(`[role="option"][href="${pick}"]`).click();
  await page.waitForURL((u) => u.pathname === new URL(pick, BASE).pathname);

  // The product page as generated, then the buy-buttons island.
  const title = (await page.getByRole('heading', { level: 1 }).textContent())?.trim();
  assert.ok(title, 'the product page has its title');
  await page
    .locator('.pr')
    .getByText(/৳[\d,]+/)
    .first()
    .waitFor();
  await expectCartCount(page, 0);
  await clickAddToCart(page);
  await page.getByText(/Added to your cart/).waitFor();
  await expectCartCount(page, 1);

  // The cart, then checkout as a guest.
  await page.getByRole('link', { name: /^Cart, 1 item$/ }).click();
  await page.waitForURL('**/cart');
  await page.getByRole('table').getByText(title).waitFor();
  await checkoutAsGuest(page, { name: 'Rahim Uddin', address: 'House 12, Road 5, Dhanmondi', tag: 'guest' });

  // Cash on delivery, the terms, place the order.
  await page.getByLabel('Cash on delivery').check();
  await page.getByLabel('I agree to the terms and conditions').check();
  await page.getByRole('button', { name: 'Place order' }).click();
  await page.waitForURL('**/thank-you?**');
  const placed = page.getByText(/Your order \S+ is placed/);
  await placed.waitFor();
  const orderNumber = await placed.locator('strong').textContent();
  assert.match(orderNumber ?? '', /\w+/);
  assert.equal(new URL(page.url()).searchParams.get('order_random'), orderNumber);
  await page.getByText('Cash on delivery').first().waitFor();
  await page.getByRole('table').getByText(title).waitFor();
  await expectCartCount(page, 0);

  // Track it from the thank-you page's link: number and phone are filled in,
  // and the order is looked up without a tap.
  await page.getByRole('link', { name: 'Track this order' }).click();
  await page.waitForURL('**/page/track-order?**');
  const idField = page.getByLabel('Order number', { exact: true });
  await idField.waitFor();
  assert.equal(await idField.inputValue(), orderNumber);
  await page.getByRole('heading', { name: `Order ${orderNumber}` }).waitFor();
  await page.getByRole('link', { name: title }).first().waitFor();
  // The money, not only the lines: cash on delivery leaves the total due.
  const total = await definition(page, 'Total');
  assert.match(total ?? '', /^৳[\d,]+$/);
  assert.equal(await definition(page, 'Due on delivery'), total);

  // A wrong phone finds nothing, and says so.
  watcher.expect(/\/api\/cart\/track-order/);
  await page.getByLabel('Mobile number used for the order').fill(mobile(Date.now() + 99));
  await page.getByRole('button', { name: 'Track order' }).click();
  await page
    .getByRole('alert')
    .getByText(/No order matches/)
    .waitFor();

  watcher.check();
  await context.close();
});
