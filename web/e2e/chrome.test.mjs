// The page chrome and the shop's contact pages through the real stack: the
// right (account) drawer signed out and signed in (its links, Escape, a click
// outside, focus kept inside and given back, full width on a phone); the
// offline note; the loading bar's failed state; the footer's social links;
// showrooms with hours and map links; chat to buy with WhatsApp and
// Messenger links; every tel: link well-formed; and the contact form sent
// with JavaScript and without, its mail landing in the outbox.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fill, launch, mails, open, OUTBOX, until } from './lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The account drawer and the header icon that opens it. */
function accountDrawer(page) {
  return { nav: page.getByRole('navigation', { name: 'Account menu' }), icon: page.getByRole('link', { name: 'My Profile', exact: true }) };
}

/** Waits until the header's islands have taken over (the cart badge reads "Cart, N items"). */
async function ready(page) {
  await page.getByRole('link', { name: /^Cart, \d+ items?$/ }).waitFor();
  await page.locator('[data-island="drawer"]').first().getByRole('button', { name: 'Menu' }).waitFor();
}

test('the account drawer: signed out and signed in, Escape and a click outside close it, focus stays in and comes back', async () => {
  const { context, page, watcher } = await open(browser);
  await page.goto('/');
  await ready(page);
  const { nav, icon } = accountDrawer(page);
  assert.equal(await nav.isVisible(), false, 'closed at first');

  // Signed out: Sign in and Create account.
  await icon.click();
  await nav.waitFor({ state: 'visible' });
  assert.equal(new URL(page.url()).hash, '', 'opened in place, no #account');
  for (const name of ['Sign in', 'Create account', 'Track an order', 'Wishlist']) await nav.getByRole('link', { name, exact: true }).waitFor();
  assert.equal(await nav.getByRole('button', { name: 'Sign out' }).count(), 0);
  assert.doesNotMatch(await nav.innerText(), /lorem|ipsum|placeholder/i, 'no leftover placeholder text');
  assert.equal(await page.evaluate(() => document.body.classList.contains('modal-open')), true);
  // Focus is inside and stays inside.
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => !!document.activeElement?.closest('#account')), true, `Tab ${i + 1} stays in the drawer`);
  }
  await page.keyboard.press('Escape');
  await nav.waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'My Profile', 'focus back on the icon');
  assert.equal(await page.evaluate(() => document.body.classList.contains('modal-open')), false);

  // A click outside closes it.
  await icon.click();
  await nav.waitFor({ state: 'visible' });
  await page.mouse.click(40, 450);
  await nav.waitFor({ state: 'hidden' });

  // Signed in: the name and the account's links.
  await icon.click();
  await nav.getByRole('link', { name: 'Sign in', exact: true }).click();
  await page.waitForURL('**/user/login**');
  await fill(page, 'Email or mobile number', 'demo@example.com');
  await fill(page, 'Password', 'demo-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.pathname === '/');
  await ready(page);
  await icon.click();
  await nav.getByRole('heading', { name: /^Hello, \S+/ }).waitFor();
  for (const [name, href] of [
    ['My profile', '/user/profile'],
    ['My orders', '/user/orders'],
    ['Wishlist', '/wishlist'],
    ['Reviews', '/user/reviews'],
  ])
    assert.equal(await nav.getByRole('link', { name, exact: true }).getAttribute('href'), href);
  await nav.getByRole('button', { name: 'Sign out' }).waitFor();
  assert.equal(await nav.getByRole('link', { name: 'Sign in', exact: true }).count(), 0);
  await page.keyboard.press('Escape');
  await nav.waitFor({ state: 'hidden' });

  // The drawer's links work: My orders.
  await icon.click();
  await nav.getByRole('link', { name: 'My orders', exact: true }).click();
  await page.waitForURL('**/user/orders');
  watcher.check();
  await context.close();
});

test('on a phone the drawers take the whole width', async () => {
  const { context, page, watcher } = await open(browser, { viewport: { width: 412, height: 860 }, isMobile: true, hasTouch: true });
  await page.goto('/page/contact');
  await ready(page);
  const { nav, icon } = accountDrawer(page);
  await icon.click();
  await nav.waitFor({ state: 'visible' });
  await until(async () => Math.round((await nav.boundingBox())?.x ?? -1), 0, 'the drawer reaches the left edge');
  assert.equal(Math.round((await nav.boundingBox())?.width ?? 0), 412);
  await page.keyboard.press('Escape');
  await nav.waitFor({ state: 'hidden' });
  watcher.check();
  await context.close();
});

test('the offline note shows when the connection drops and "Back online" when it returns', async () => {
  const { context, page, watcher } = await open(browser);
  await page.goto('/page/showrooms');
  await ready(page);
  await page.locator('[data-island="online-status"] [role="status"]').waitFor({ state: 'attached' });
  await context.setOffline(true);
  await page.getByText(/^You are offline/).waitFor();
  await context.setOffline(false);
  await page.getByText('Back online.').waitFor();
  watcher.check();
  await context.close();
});

test('footer social links, showrooms with hours and map links, chat to buy links, well-formed tel: links', async () => {
  const { context, page, watcher } = await open(browser);
  const tels = new Set();
  const collectTels = async () => {
    for (const href of await page.locator('a[href^="tel:"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')))) tels.add(href);
  };

  await page.goto('/page/showrooms');
  const footer = page.locator('footer');
  const social = footer.getByRole('link', { name: /on (Facebook|Instagram|YouTube)$/ });
  assert.ok((await social.count()) >= 3, 'the footer links the shop on Facebook, Instagram and YouTube');
  for (const link of await social.all()) {
    assert.equal(await link.getAttribute('rel'), 'noopener');
    assert.match(await link.getAttribute('href'), /^https:\/\/www\.(facebook|instagram|youtube)\.com\/@?[a-z0-9.]+\/?$/);
  }
  assert.equal(await footer.locator('img').count(), 0, 'no images loaded for the icons');

  const shops = page.locator('ul.shops > li');
  assert.ok((await shops.count()) >= 10, 'the showrooms are listed');
  for (const shop of await shops.all()) {
    assert.match(await shop.innerText(), /Open: \S/);
    const map = shop.getByRole('link', { name: /^Map/ });
    assert.match(await map.getAttribute('href'), /^https:\/\/www\.openstreetmap\.org\/\?mlat=-?\d+\.\d+&mlon=-?\d+\.\d+#map=17\/-?\d+\.\d+\/-?\d+\.\d+$/);
  }
  await collectTels();

  await page.goto('/page/chatbuy');
  const wa = await page.locator('a[href^="https://wa.me/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.ok(wa.length >= 1, 'WhatsApp links');
  for (const href of wa) assert.match(href, /^https:\/\/wa\.me\/8801[3-9]\d{8}\?text=\S+$/);
  const mm = await page.locator('a[href^="https://m.me/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.ok(mm.length >= 1, 'Messenger links');
  for (const href of mm) assert.match(href, /^https:\/\/m\.me\/[A-Za-z0-9.]+\?text=\S+$/);
  await collectTels();

  await page.goto('/page/contact');
  await collectTels();
  // A CMS page's text names the hotline as a link too.
  await page.goto('/page/faq');
  assert.equal(await page.locator('main a[href^="tel:"]').count(), 1, 'the FAQ page links its hotline');
  await collectTels();
  await page.goto('/');
  await collectTels();
  assert.ok(tels.size >= 10, `tel: links found: ${[...tels].join(' ')}`);
  for (const href of tels) assert.match(href, /^tel:\+?\d{6,15}$/, `well-formed ${href}`);
  watcher.check();
  await context.close();
});

test('the contact form sends a message, mails the shop, and a failed request turns the loading bar to failed', async () => {
  const { context, page, watcher } = await open(browser);
  const before = mails().length;
  await page.goto('/page/contact');
  await page.getByRole('button', { name: 'Send message' }).waitFor();
  await ready(page);

  // A request the server fails: the form says so and the bar turns to failed.
  watcher.expect(/\/api\/common\/contact$/);
  await page.route(
    '**/api/common/contact',
    (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false,"message":"Something went wrong on our side."}' }),
    { times: 1 },
  );
  const stamp = `e2e-${Date.now()}`;
  await fill(page, 'Your name', 'Rahima Khatun');
  await fill(page, 'Mobile or e-mail', 'rahima@example.com');
  await fill(page, 'Message', `Do you deliver to Sylhet? ${stamp}`);
  await page.getByRole('button', { name: 'Send message' }).click();
  await page.getByRole('alert').getByText('Something went wrong on our side.').waitFor();
  await page.locator('[data-island="loading-bar"] > [data-state="failed"]').waitFor({ state: 'attached' });

  // Sent again, it arrives.
  await page.getByRole('button', { name: 'Send message' }).click();
  await page
    .getByRole('status')
    .getByText(/Thank you: your message has reached us/)
    .waitFor();
  if (OUTBOX) {
    await until(() => mails().length, before + 1, 'one more mail in the outbox');
    const mail = mails().find((m) => m.includes(stamp));
    assert.ok(mail, 'the mail holds the message');
    assert.match(mail, /Rahima Khatun/);
    assert.match(mail, /rahima@example\.com/);
  }
  watcher.check();
  await context.close();
});

test('without JavaScript the contact form posts itself and comes back to the confirmation', async () => {
  const { context, page, watcher } = await open(browser, { javaScriptEnabled: false, viewport: { width: 412, height: 860 } });
  const before = mails().length;
  await page.goto('/page/contact');
  const stamp = `nojs-${Date.now()}`;
  await page.getByLabel('Your name').fill('Karim Uddin');
  await page.getByLabel('Mobile or e-mail').fill('01712345678');
  await page.getByLabel('Message').fill(`Is the Gulshan showroom open on Friday? ${stamp}`);
  await page.getByRole('button', { name: 'Send message' }).click();
  await page.waitForURL('**/page/contact?sent=1#sent');
  await page.getByText('Thank you: your message has reached us.').waitFor({ state: 'visible' });
  assert.equal(await page.getByText('Your message could not be sent').isVisible(), false);
  if (OUTBOX) {
    await until(() => mails().length, before + 1, 'one more mail in the outbox');
    assert.ok(mails().some((m) => m.includes(stamp) && m.includes('01712345678')));
  }
  watcher.check();
  await context.close();
});
