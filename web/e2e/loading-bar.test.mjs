// The loading bar on route loads (SPEC.md §4), on a phone: a tap on a link
// to another page of the shop starts it at once and it runs while that page
// is slow to come; the next page loads; Back does not bring a page with the
// bar still running (pagehide and a page restored from the back-forward
// cache end it). E2E_SHOTS=<dir> saves phone-size screenshots.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PHONE, data, launch, open, shot } from './lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The state the loading bar island shows (`idle`, `running`, `done`, `failed`). */
const barState = (page) => page.locator('[data-island="loading-bar"][data-live] > div').getAttribute('data-state');

test('a tap on a link starts the bar at once, it runs while the slow page comes, and Back does not find it running', async () => {
  // No service worker: it would fetch the next page itself, past the held request below.
  const { context, page, watcher } = await open(browser, { ...PHONE, serviceWorkers: 'block' });
  const [product] = data.buyable;
  await page.goto(`/product/${product.seo_url}`);
  await page.locator('[data-island="loading-bar"][data-live]').waitFor({ state: 'attached' });
  assert.equal(await barState(page), 'idle');

  // The next page is slow to answer (a held request, as on a slow link).
  const next = `/c/products`;
  let release;
  const held = new Promise((r) => (release = r));
  const isNext = (u) => u.pathname === next;
  await page.route(isNext, async (route) => {
    await held;
    await route.continue();
  });
  // A link of the shop's own, tapped on the page (the drawer's All Products link sits off-screen).
  await page.evaluate((href) => {
    const a = document.createElement('a');
    a.href = href;
    a.textContent = 'All products (test link)';
    a.style.cssText = 'position:fixed;bottom:80px;left:16px;z-index:99;background:#fff;padding:12px';
    document.body.append(a);
  }, next);
  // When the tap happened, when the bar started running and what it shows 800 ms later, as
  // the page saw them (kept in sessionStorage: the test can read the page only once the next
  // one has come).
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.backForwardMarker = true;
    const bar = document.querySelector('[data-island="loading-bar"] > div');
    const note = (k, v) => sessionStorage.setItem(k, String(v));
    addEventListener(
      'click',
      () => {
        note('tappedAt', performance.now());
        setTimeout(() => note('stateLater', bar?.getAttribute('data-state')), 800);
      },
      { capture: true },
    );
    new MutationObserver(() => {
      if (bar?.getAttribute('data-state') === 'running' && !sessionStorage.getItem('runningAt')) note('runningAt', performance.now());
    }).observe(bar, { attributes: true });
  });
  // The finger on the link (the touchscreen's tap, not the locator's, which waits for the next page).
  const box = await page.getByRole('link', { name: 'All products (test link)' }).boundingBox();
  assert.ok(box, 'the link is on the screen');
  setTimeout(() => release(), 1500);
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForURL((u) => u.pathname === next);
  await page.locator('[data-island="loading-bar"][data-live]').waitFor({ state: 'attached' });
  const seen = await page.evaluate(() => ({
    tappedAt: Number(sessionStorage.getItem('tappedAt')),
    runningAt: Number(sessionStorage.getItem('runningAt')),
    stateLater: sessionStorage.getItem('stateLater'),
  }));
  assert.ok(seen.tappedAt > 0 && seen.runningAt > 0, `the bar ran after the tap: ${JSON.stringify(seen)}`);
  // At once: within a frame or two, not after the requests' 200 ms throttle.
  const lag = seen.runningAt - seen.tappedAt;
  assert.ok(lag < 120, `the bar starts at once (${Math.round(lag)} ms after the tap)`);
  assert.equal(seen.stateLater, 'running', 'it still runs 800 ms later, while the next page is awaited');
  await shot(page, 'loading-bar-next-page');
  await page.unroute(isNext);

  // Back: the product page again, from the back-forward cache or loaded anew, with no bar running.
  await page.goBack();
  await page.waitForURL((u) => u.pathname === `/product/${product.seo_url}`);
  await page.locator('[data-island="loading-bar"][data-live]').waitFor({ state: 'attached' });
  await page.waitForTimeout(300);
  const restored = await page.evaluate(() => /** @type {any} */ (window).backForwardMarker === true);
  console.log(`back: the product page ${restored ? 'came back from the back-forward cache' : 'was loaded anew'}`);
  assert.notEqual(await barState(page), 'running', 'Back does not leave the bar running');
  await shot(page, 'loading-bar-after-back');

  watcher.check();
  await context.close();
});
