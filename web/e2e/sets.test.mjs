// Product sets (issue 15): the set page shows each item's stock and the
// set's state before any tap. A set one of whose items cannot be supplied
// in the set's quantity says which ("Out of stock: …") and offers no add,
// with JavaScript and without; a set in stock with fabrics has the shopper
// choose one (a keyboard-usable radio group), adds it, and the cart shows
// the set with that fabric; without JavaScript the set page's form adds it,
// fabric and all, to the basic cart (/lite/cart). The sets are found through the API on the
// run's demo data. E2E_SHOTS=<dir> saves phone-size screenshots.
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { BASE, PHONE, expectCartCount, launch, open, shot, until } from './lib.mjs';

async function api(path) {
  const res = await fetch(`${BASE}${path}`);
  assert.equal(res.status, 200, path);
  return res.json();
}

/** Every active set with its products, fabrics and the items it cannot have now. */
async function sets() {
  const { product_sets } = await api('/api/common/product-set');
  const out = [];
  for (const s of product_sets) {
    const { products } = await api(`/api/product/product-set-products?slug=${s.slug}`);
    const { fabrics } = await api(`/api/product/product-set-fabrics?slug=${s.slug}`);
    const blocked = products.filter((p) => p.disable_buy || (p.stock_status !== 'pre_booking' && p.qty < p.product_set_qty));
    out.push({ ...s, products, fabrics, blocked });
  }
  return out;
}

let browser, all;
const contexts = [];
before(async () => {
  browser = await launch();
  all = await sets();
});
afterEach(async () => {
  while (contexts.length) await contexts.pop().close();
});
after(async () => {
  await browser?.close();
});

async function page(options = {}) {
  const opened = await open(browser, { ...PHONE, ...options });
  contexts.push(opened.context);
  return opened;
}

test('a set with an item out of stock says which, and offers no add, with JavaScript and without', async () => {
  const set = all.find((s) => s.blocked.length);
  assert.ok(set, 'the demo data has a set with an item out of stock');
  const names = set.blocked.map((p) => p.title).join(', ');
  for (const javaScriptEnabled of [true, false]) {
    const { page: p, watcher } = await page({ javaScriptEnabled });
    await p.goto(`/product-set/${set.slug}`);
    await p.getByText(`Out of stock: ${names}`, { exact: true }).waitFor();
    const add = p.getByRole('button', { name: 'Add the set to cart' });
    assert.equal(await add.isDisabled(), true, 'no add is offered');
    // The table says it item by item, with the quantity the set needs.
    for (const item of set.products) {
      const row = p.getByRole('row').filter({ has: p.getByRole('link', { name: item.title, exact: true }) });
      const text = await row.innerText();
      assert.match(text, new RegExp(`× ${item.product_set_qty} in the set`));
      const out = set.blocked.includes(item);
      assert.match(text, out ? /Out of stock|Too few in stock|Not sold online/ : /In stock|Pre-booking/, `${item.title}: ${text}`);
    }
    await shot(p, `set-out-of-stock-${javaScriptEnabled ? 'js' : 'nojs'}`, true);
    watcher.check();
  }
});

test('a set in stock with fabrics: choose a fabric with the keyboard, add, and the cart shows the set in it', async () => {
  const set = all.find((s) => !s.blocked.length && s.fabrics.length >= 2 && s.products.length);
  assert.ok(set, 'the demo data has a set in stock with fabrics');
  const { page: p, watcher } = await page();
  await p.goto(`/product-set/${set.slug}`);
  await p.getByText(`In stock: all ${set.products.length} items of the set.`).waitFor();
  const add = p.getByRole('button', { name: 'Add the set to cart' });
  // The island checks the stock again before it offers the add.
  await until(() => add.isEnabled(), true, 'the add is offered once the stock is checked');
  // No fabric yet: the shopper is asked for one and nothing is added.
  await add.click();
  assert.equal(await p.getByRole('alert').innerText(), 'Choose a fabric first.');
  const group = p.getByRole('group', { name: 'Choose a fabric' });
  for (const f of set.fabrics) await group.getByRole('radio', { name: f.title }).waitFor();
  await shot(p, 'set-in-stock-js', true);
  // The first radio has the focus (it was asked for); an arrow key picks the next fabric.
  await p.keyboard.press('ArrowRight');
  const chosen = set.fabrics[1];
  assert.equal(await group.getByRole('radio', { name: chosen.title }).isChecked(), true);
  await add.click();
  await p.getByText(`The set is in your cart, in ${chosen.title}.`).waitFor();
  // The badge counts pieces: every product of the set in its quantity.
  await expectCartCount(
    p,
    set.products.reduce((n, item) => n + item.product_set_qty, 0),
  );
  await p.getByRole('link', { name: 'View cart' }).last().click();
  await p.waitForURL('**/cart');
  const section = p.getByRole('region', { name: set.title });
  await section.getByText(`Fabric: ${chosen.title}`).waitFor();
  for (const item of set.products) await section.getByRole('link', { name: item.title }).first().waitFor();
  await shot(p, 'cart-with-set', true);
  watcher.check();
});

test('without JavaScript a set in stock shows its stock and fabrics, and the chosen fabric goes into the basic cart', async () => {
  const set = all.find((s) => !s.blocked.length && s.fabrics.length);
  const { page: p, watcher } = await page({ javaScriptEnabled: false });
  await p.goto(`/product-set/${set.slug}`);
  await p.getByText(`In stock: all ${set.products.length} items of the set.`).waitFor();
  for (const f of set.fabrics) await p.getByText(f.title, { exact: true }).first().waitFor();
  await shot(p, 'set-in-stock-nojs', true);
  const chosen = set.fabrics[set.fabrics.length - 1];
  await p.getByRole('group', { name: 'Choose a fabric' }).getByRole('radio', { name: chosen.title }).check();
  await p.getByRole('button', { name: 'Add the set to cart' }).click();
  await p.waitForURL('**/lite/cart?done=added');
  const line = p.getByRole('link', { name: set.title, exact: true });
  assert.equal(await line.getAttribute('href'), `/product-set/${set.slug}`);
  assert.match(await p.locator('main').innerText(), new RegExp(`Fabric: ${chosen.title}`));
  await shot(p, 'lite-cart-with-set', true);
  watcher.check();
});
