// What every browser test shares: Debian's Chromium driven by playwright-core,
// the stack's addresses and demo data (web/e2e/run exports them), and a
// watcher that fails the test on any console error, page error or failed
// same-origin request.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

/** The shop through the edge's plain-HTTP listener, no trailing slash. */
export const BASE = process.env.E2E_BASE_URL ?? '';
/** The same shop through the edge's TLS listener (self-signed). */
export const TLS_BASE = process.env.E2E_TLS_URL ?? '';
/** Where the origin writes the mails it sends (unset: the mail tests skip). */
export const OUTBOX = process.env.E2E_OUTBOX ?? '';
if (!BASE) throw new Error('E2E_BASE_URL is not set: run the tests with web/e2e/run');

/** The demo data of this run (loadtests/tool.py export): products, buyable products, categories, words. */
export const data = JSON.parse(readFileSync(process.env.E2E_DATA ?? '', 'utf8'));

/**
 * Defects found by these tests and reported, not yet fixed, which would fail
 * every test: printed by `check()` instead. Remove each line once fixed.
 * (None at present.)
 */
const KNOWN = [];
/** Whether `url` is one of the reported defects above. */
export const knownDefect = (url) => KNOWN.some((re) => re.test(url));

/** The flags Chromium needs as root on a machine with no display and no internet. */
export const CHROME_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Launches /usr/bin/chromium headless (playwright gives it a fresh profile directory). */
export function launch(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    headless: true,
    args: [...CHROME_FLAGS, ...extraArgs],
  });
}

/**
 * Records what would be a defect a shopper might meet on `page`: console
 * errors, uncaught page errors, same-origin requests that fail or answer
 * 4xx/5xx. `expect(pattern)` allows one answer that the flow expects (a
 * wrong password's 401); `check()` asserts nothing else happened.
 */
export function watch(page) {
  const problems = [];
  const known = new Set();
  const allowed = [];
  const sameOrigin = (url) => url.startsWith(`${BASE}/`) || (TLS_BASE !== '' && url.startsWith(`${TLS_BASE}/`));
  const isAllowed = (url) => allowed.some((re) => re.test(url)) || (knownDefect(url) && !!known.add(`${url} answers an error`));
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const where = msg.location()?.url ?? '';
    const text = `console error: ${msg.text()}${where ? ` (${where})` : ''} on ${page.url()}`;
    // Chrome reports every 4xx/5xx answer as a console error too; those are judged below.
    if (/^Failed to load resource: the server responded with a status of/.test(msg.text()) && isAllowed(where)) return;
    problems.push(text);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message} on ${page.url()}`));
  page.on('requestfailed', (req) => {
    const failure = req.failure()?.errorText ?? '';
    // Aborted: the page navigated away, or an island cancelled a stale fetch (AbortController).
    if (!sameOrigin(req.url()) || failure === 'net::ERR_ABORTED') return;
    problems.push(`request failed: ${req.method()} ${req.url()} ${failure}`);
  });
  page.on('response', (res) => {
    if (!sameOrigin(res.url()) || res.status() < 400) return;
    const text = `${res.request().method()} ${res.url()} answered ${res.status()}`;
    if (!isAllowed(res.url())) problems.push(text);
  });
  return {
    problems,
    /** Allows 4xx/5xx answers (and their console lines) for URLs matching `re`. */
    expect(re) {
      allowed.push(re);
    },
    check() {
      for (const what of known) console.log(`known defect, not failed: ${what}`);
      assert.deepEqual(problems, [], `problems on the page:\n${problems.join('\n')}`);
    },
  };
}

/** A phone-sized window (the shop's usual visitor). */
export const PHONE = { viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true };

/** Saves a screenshot as `E2E_SHOTS/<name>.png` when E2E_SHOTS names a folder. */
export async function shot(page, name, fullPage = false) {
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/${name}.png`, fullPage });
}

/** A new context (cookies, storage) and page with the watcher on. */
export async function open(browser, options = {}) {
  const context = await browser.newContext({ baseURL: BASE, viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const watcher = watch(page);
  // The offer (widget 5) opens over the first page of a visit, at most once
  // an hour: closed as a shopper would, after its 500 ms guard.
  await page.addLocatorHandler(page.getByRole('dialog', { name: 'Offer' }), async (dialog) => {
    await page.waitForTimeout(600);
    await dialog.getByRole('button', { name: 'Close' }).click();
  });
  return { context, page, watcher };
}

/** The number in the header's cart badge, as the shopper reads it. */
export async function cartCount(page) {
  const label = await page.getByRole('link', { name: /^Cart, \d+ items?$/ }).getAttribute('aria-label');
  return Number(/\d+/.exec(label ?? '')?.[0]);
}

/** Waits until the header's cart badge shows `n`. */
export async function expectCartCount(page, n) {
  await page.getByRole('link', { name: new RegExp(`^Cart, ${n} items?$`) }).waitFor({ state: 'visible' });
}

/**
 * Clicks the product page's "Add to cart" once the buy-buttons island has
 * taken over (its Compare is a button; the no-JavaScript fallback's is a link
 * beside a form that posts to the API).
 */
export async function clickAddToCart(page) {
  await page.getByRole('button', { name: 'Compare', exact: true }).waitFor();
  await page.getByRole('button', { name: 'Add to cart' }).click();
}

/** Buyable products (cash on delivery, in stock, no variations), at least `n` distinct ones. */
export function buyable(n = 1, skip = 0) {
  const list = data.buyable.filter((p) => p.stock >= 5).slice(skip, skip + n);
  assert.equal(list.length, n, 'not enough buyable products in the demo data');
  return list;
}

/** A unique 11-digit Bangladeshi mobile number (01[3-9] and 8 digits). */
export function mobile(seed = Date.now()) {
  return `017${String(seed % 1e8).padStart(8, '0')}`;
}

/** A unique address for a new account. */
export function email(tag) {
  return `e2e-${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** Polls `read` until it answers `expected` (an island filling a field from the API), else fails. */
export async function until(read, expected, what, ms = 10_000) {
  let got;
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    got = await read();
    if (got === expected) return;
  }
  assert.equal(got, expected, what);
}

/**
 * Types into a labelled field as a shopper would (click, then key presses).
 * The offer (widget 5) opens when the browser is idle and takes the focus;
 * if it opened while typing, its handler has closed it and some key presses
 * went to it: the shopper clears the field and types again.
 */
export async function fill(page, label, value) {
  const field = page.getByLabel(label, { exact: true });
  for (let attempt = 1; ; attempt++) {
    await field.click();
    await field.pressSequentially(value, { delay: 0 });
    const got = await field.inputValue();
    if (got.endsWith(value)) return;
    assert.ok(attempt < 3, `typing "${value}" into ${label} left "${got}"`);
    await field.fill('');
  }
}

/**
 * From the cart page: proceeds to checkout, fills the delivery form as a
 * guest (the first district), and continues to the payment page.
 */
export async function checkoutAsGuest(page, { name, address, tag }) {
  await page.getByRole('button', { name: 'Proceed to checkout' }).click();
  await page.waitForURL('**/checkout');
  await fill(page, 'Full name', name);
  await fill(page, 'Mobile number', mobile());
  await fill(page, 'Emergency mobile number', mobile(Date.now() + 7));
  await fill(page, 'Email for the receipt (optional)', email(tag));
  const district = page.getByLabel('District');
  await district.locator('option').nth(1).waitFor({ state: 'attached' });
  await district.selectOption((await district.locator('option').nth(1).getAttribute('value')) ?? '');
  await fill(page, 'Address', address);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.waitForURL('**/payment');
}

/** The text of the `<dd>` after the `<dt>` that reads `term` (the first such pair shown). */
export async function definition(page, term) {
  const dd = page
    .locator('dt', { hasText: new RegExp(`^${term}$`) })
    .first()
    .locator('xpath=following-sibling::dd[1]');
  return (await dd.textContent())?.trim();
}

/** The text of every mail in the outbox. */
export function mails() {
  try {
    return readdirSync(OUTBOX)
      .filter((f) => f.endsWith('.eml'))
      .map((f) => readFileSync(join(OUTBOX, f), 'utf8'));
  } catch {
    return [];
  }
}
