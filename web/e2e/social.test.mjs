// Social sign-in through the real UI (SPEC.md §6), against the simulated
// Google and Facebook of payments-sim (consent page, token and user-info
// endpoints; the stack's GOOGLE_* and FACEBOOK_* settings point at it): a guest continues with Google,
// consents, and lands signed in on the home page with the guest's cart; a
// Google e-mail that belongs to an existing account needs that account's
// password once, a wrong one is refused; cancelling at Google says so. The
// callback hands the page a one-time code bound to a cookie of the browser
// that came back (never a token or ticket in the address), so a link to
// /user/login carrying another account's token signs nobody in (login CSRF).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE, buyable, clickAddToCart, email, expectCartCount, fill, launch, mobile, open, shot, until } from './lib.mjs';

/** The phone the sign-in page is looked at on. */
const PHONE_390 = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const CONSENT = { Google: 'Sign in with Google', Facebook: 'Log in with Facebook' };

/** From /user/login, through the provider's (simulated) consent as `who`, with Allow or Cancel. */
async function continueWith(page, provider, who, choice = 'Allow') {
  await page.goto('/user/login');
  await page.getByRole('link', { name: `Continue with ${provider}` }).waitFor();
  await shot(page, 'social-login');
  await page.getByRole('link', { name: `Continue with ${provider}` }).click();
  await page.getByRole('heading', { name: CONSENT[provider] }).waitFor();
  await shot(page, `social-${provider.toLowerCase()}-consent`);
  if (choice === 'Allow') {
    await page.getByLabel('E-mail', { exact: true }).fill(who.email);
    await page.getByLabel('Name', { exact: true }).fill(who.name);
  }
  await page.getByRole('button', { name: choice }).click();
}

/** Continues with Google. */
const continueWithGoogle = (page, who, choice) => continueWith(page, 'Google', who, choice);

/** Registers an account with a password through the API, as the registration page does. */
async function register(account) {
  const res = await fetch(`${BASE}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({
      name: account.name,
      email: account.email,
      telephone: mobile(),
      emergency_contact_number: mobile(Date.now() + 5),
      district: 'Dhaka',
      password: account.password,
      password_confirmation: account.password,
      agree: true,
      device_name: 'e2e',
    }),
  });
  assert.equal(res.status, 200, await res.text());
}

/** Signs `account` in through the API, as the sign-in page does; answers its token. */
async function login(account) {
  const res = await fetch(`${BASE}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password, device_name: 'e2e' }),
  });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.token;
}

/** The addresses the page's main frame navigated to (redirects' targets included). */
function addresses(page) {
  const seen = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) seen.push(frame.url());
  });
  return seen;
}

/** The signed-in shopper's e-mail, as the profile page shows it. */
async function profileEmail(page) {
  await page.goto('/user/profile');
  const field = page.getByLabel('Email', { exact: true });
  await until(async () => ((await field.inputValue()) === '' ? '' : 'filled'), 'filled', 'the profile shows the e-mail');
  return field.inputValue();
}

test('a guest continues with Google and is signed in on the home page with the cart', async () => {
  const { context, page, watcher } = await open(browser);
  const [product] = buyable(1, 30);
  const who = { email: email('google'), name: 'Nadia Google' };

  await page.goto(`/product/${product.seo_url}`);
  await expectCartCount(page, 0);
  await clickAddToCart(page);
  await page.getByText(/Added to your cart/).waitFor();
  await expectCartCount(page, 1);

  const seen = addresses(page);
  await continueWithGoogle(page, who);
  // Back through the callback and /user/login#social_code=... (redeemed once) to the home page.
  await page.waitForURL((u) => u.origin === BASE && u.pathname === '/');
  assert.equal(new URL(page.url()).hash, '');
  assert.ok(await page.evaluate(() => localStorage.getItem('auth_token')), 'the token is kept');
  assert.ok(
    seen.some((u) => /\/user\/login#social_code=[0-9a-f]{64}$/.test(u)),
    `the callback handed over a code: ${seen.join(' ')}`,
  );
  assert.ok(!seen.some((u) => /social_token|social_link/.test(u)), `no token or ticket in an address: ${seen.join(' ')}`);
  // The cookie the code was bound to is gone once redeemed.
  assert.deepEqual(
    (await context.cookies()).filter((c) => c.name.startsWith('social_')).map((c) => c.name),
    [],
  );
  await expectCartCount(page, 1);
  assert.equal(await profileEmail(page), who.email);

  // Signing in again finds the same account (no second one, no password asked).
  await page.evaluate(() => localStorage.removeItem('auth_token'));
  await continueWithGoogle(page, who);
  await page.waitForURL((u) => u.origin === BASE && u.pathname === '/');
  assert.equal(await profileEmail(page), who.email);
  watcher.check();
  await context.close();
});

test("Google's e-mail of an existing account links it with that account's password", async () => {
  const { context, page, watcher } = await open(browser);
  const account = { name: 'Rafi Password', email: email('link'), password: 'walnut-table-42' };
  await register(account);

  await continueWithGoogle(page, { email: account.email, name: account.name });
  await page.getByText('An account with this e-mail already exists. Enter its password to link Google and sign in.').waitFor();
  assert.equal(new URL(page.url()).hash, '', 'the ticket left the address bar');
  await shot(page, 'social-link');

  // A wrong password is refused by its field (the origin answers 400).
  watcher.expect(/\/api\/auth\/social\/link$/);
  await fill(page, 'Password', 'not-the-password');
  await page.getByRole('button', { name: 'Link Google and sign in' }).click();
  await page.getByText('The password is not right.').waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('auth_token')), null);

  await page.getByLabel('Password', { exact: true }).fill('');
  await fill(page, 'Password', account.password);
  await page.getByRole('button', { name: 'Link Google and sign in' }).click();
  await page.waitForURL((u) => u.origin === BASE && u.pathname === '/');
  assert.equal(await profileEmail(page), account.email);

  // Linked: the next Google sign-in goes straight in.
  await page.evaluate(() => localStorage.removeItem('auth_token'));
  await continueWithGoogle(page, { email: account.email, name: account.name });
  await page.waitForURL((u) => u.origin === BASE && u.pathname === '/');
  assert.equal(await profileEmail(page), account.email);
  watcher.check();
  await context.close();
});

test('cancelling at Google says so on the sign-in page, which still works', async () => {
  const { context, page, watcher } = await open(browser);
  await continueWithGoogle(page, null, 'Cancel');
  await page.waitForURL((u) => u.origin === BASE && u.pathname === '/user/login');
  assert.equal((await page.getByRole('alert').textContent())?.trim(), 'Signing in with Google was cancelled.');
  assert.equal(new URL(page.url()).hash, '');
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('auth_token')), null);
  watcher.check();
  await context.close();
});

test('Facebook makes no account on an address it cannot vouch for, and links an existing one only with its password', async () => {
  const { context, page, watcher } = await open(browser, PHONE_390);
  // Facebook never says an e-mail is verified: no account is made on it (an
  // outside tester took over accounts made so, once their owner reset the password).
  const who = { email: email('facebook'), name: 'Tania Facebook' };
  await continueWith(page, 'Facebook', who);
  await page.waitForURL((u) => u.origin === BASE && u.pathname === '/user/login');
  assert.equal(
    (await page.getByRole('alert').textContent())?.trim(),
    'Facebook could not confirm that this e-mail address is yours, so we cannot open an account with it. ' +
      'Please register with your e-mail or mobile number; once you have, signing in with Facebook links it with your password.',
  );
  assert.equal(new URL(page.url()).hash, '');
  assert.equal(await page.evaluate(() => localStorage.getItem('auth_token')), null);
  await shot(page, 'social-facebook-refused');

  // An account with a password is linked to Facebook only with that password.
  const account = { name: 'Sumi Password', email: email('fb-existing'), password: 'teak-chair-1234' };
  await register(account);
  await continueWith(page, 'Facebook', account);
  await page.getByText('An account with this e-mail already exists. Enter its password to link Facebook and sign in.').waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('auth_token')), null, 'nothing signed in yet');
  await fill(page, 'Password', account.password);
  await page.getByRole('button', { name: 'Link Facebook and sign in' }).click();
  await page.waitForURL((u) => u.origin === BASE && u.pathname === '/');
  assert.equal(await profileEmail(page), account.email);
  watcher.check();
  await context.close();
});

test("a link to the sign-in page carrying another account's token or ticket signs nobody in", async () => {
  // The attacker's own account, and a real token of it.
  const attacker = { name: 'Mallory Token', email: email('csrf'), password: 'mahogany-desk-77' };
  await register(attacker);
  const token = await login(attacker);
  const me = await fetch(`${BASE}/api/auth/user`, { headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } });
  assert.equal((await me.json()).user?.email, attacker.email, 'the token is a working one');

  // The victim opens the attacker's links on a phone.
  const { context, page, watcher } = await open(browser, PHONE_390);
  for (const [what, hash] of [
    ['token', `#social_token=${encodeURIComponent(token)}`],
    ['ticket', '#social_link=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef&provider=google'],
  ]) {
    // A fresh load, as following a link from elsewhere is.
    await page.goto('about:blank');
    await page.goto(`/user/login${hash}`);
    // The ordinary sign-in form, once the page has settled (the providers listed).
    await page.getByRole('link', { name: 'Continue with Google' }).waitFor();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    assert.equal(await page.getByRole('button', { name: /^Link / }).count(), 0, `${what}: no password-for-linking form`);
    assert.equal(new URL(page.url()).hash, '', `${what}: the fragment is cleared`);
    assert.equal(await page.evaluate(() => localStorage.getItem('auth_token')), null, `${what}: no token stored`);
  }
  await shot(page, 'social-login-phone-390');
  // Fits the phone: nothing wider than the screen.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');
  // Still a guest: the account page asks for a sign-in.
  await page.goto('/user/profile');
  await page.getByText('to see your account.').waitFor();
  await page.getByRole('link', { name: 'sign in', exact: true }).waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('auth_token')), null);
  watcher.check();
  await context.close();

  // Without JavaScript the page offers the basic sign-in instead, which fits the phone too.
  const bare = await open(browser, { ...PHONE_390, javaScriptEnabled: false });
  await bare.page.goto(`/user/login#social_token=${encodeURIComponent(token)}`);
  await bare.page.getByText('Without JavaScript?').waitFor();
  await shot(bare.page, 'social-login-phone-390-no-js');
  assert.ok(await bare.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');
  await bare.page.getByRole('link', { name: 'Use the basic sign-in' }).click();
  await bare.page.waitForURL((u) => u.pathname === '/lite/login');
  await bare.page.getByRole('button', { name: 'Sign in' }).waitFor();
  await shot(bare.page, 'social-login-phone-390-lite');
  assert.ok(await bare.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');
  // Chrome refuses the shell's module preloads before sending them when scripting is off
  // (reported as a CSP failure, as in no-javascript.test.mjs): nothing the shopper meets.
  const refusedPreload = /^request failed: GET \S+\/assets\/\S+\.js csp$/;
  bare.watcher.problems.splice(0, Infinity, ...bare.watcher.problems.filter((p) => !refusedPreload.test(p)));
  bare.watcher.check();
  await bare.context.close();
});
