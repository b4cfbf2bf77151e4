// A screenshot tour of the demo shop as a shopper on a phone sees it (issue
// 21): home, a category, three products (one with a 360° view and a video),
// a product set, a policy page and a blog post. Each page is checked for
// what a skeleton shop shows: filler sentences ("Lorem", "This page explains
// our …"), words left by code ("undefined", "NaN", "[object"), a heading
// repeated, a picture that did not load, an empty heading; the video plays
// from the shop's own storage after a tap (no external embed). With
// E2E_SHOTS=<dir> every page is saved as a full-page phone screenshot.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { BASE, PHONE, launch, open, shot } from './lib.mjs';

/** Rows of a query on the run's database (python3's sqlite3, as details.test.mjs does). */
function rows(sql) {
  const db = (process.env.E2E_DB ?? '').replace(/^sqlite:/, '');
  assert.ok(db, 'E2E_DB is not set: run the tests with web/e2e/run');
  const out = execFileSync('python3', [
    '-c',
    'import json,sqlite3,sys; print(json.dumps(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchall()))',
    db,
    sql,
  ]);
  return JSON.parse(out.toString());
}

const FILLER = /lorem|ipsum|explains our|placeholder|\bundefined\b|\bNaN\b|\[object|\btodo\b/i;

let browser, context, page, watcher;
before(async () => {
  browser = await launch();
  ({ context, page, watcher } = await open(browser, PHONE));
});
after(async () => {
  await context?.close();
  await browser?.close();
});

/** Scrolls through the page so that lazy pictures load, then back to the top. */
async function scrollThrough() {
  await page.evaluate(async () => {
    const step = window.innerHeight * 0.8;
    for (let y = 0; y < document.body.scrollHeight; y += step) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 60));
    }
    window.scrollTo(0, 0);
  });
  await page.waitForLoadState('networkidle');
}

/** The checks every page of the tour passes, and its screenshot. */
async function visit(path, name) {
  await page.goto(path);
  await page.locator('main').first().waitFor();
  await scrollThrough();
  const facts = await page.evaluate(() => {
    const main = document.querySelector('main') ?? document.body;
    const headings = [...main.querySelectorAll('h1, h2, h3')].map((h) => h.textContent.replace(/\s+/g, ' ').trim());
    const broken = [...document.images].filter((img) => img.complete && img.currentSrc && img.naturalWidth === 0).map((img) => img.currentSrc);
    return { text: main.innerText, headings, broken, h1: document.querySelectorAll('h1').length };
  });
  const filler = facts.text.match(FILLER);
  assert.equal(filler, null, `${path} says ${filler?.[0]}`);
  assert.deepEqual(facts.broken, [], `${path}: pictures that did not load`);
  assert.ok(facts.h1 <= 1, `${path} has ${facts.h1} h1 headings`);
  assert.ok(
    facts.headings.every((h) => h.length > 0),
    `${path} has an empty heading`,
  );
  // Section headings (h1, h2) once each; no heading at all three times.
  const counts = new Map();
  for (const h of facts.headings) counts.set(h, (counts.get(h) ?? 0) + 1);
  for (const [h, n] of counts) assert.ok(n < 3, `${path} repeats "${h}" ${n} times`);
  const sections = await page.locator('main h1, main h2').allTextContents();
  const trimmed = sections.map((s) => s.replace(/\s+/g, ' ').trim());
  assert.equal(new Set(trimmed).size, trimmed.length, `${path} repeats a section heading: ${trimmed.join(' | ')}`);
  // Sections below the fold render on demand (content-visibility: auto),
  // which a full-page screenshot would show blank.
  await page.addStyleTag({ content: '*{content-visibility:visible!important}' });
  await shot(page, `tour-${name}`, true);
  return facts;
}

test('home: the advert of the sale, the banner carries its words as text, tiles keep their pictures whole', async () => {
  // The advert of the running sale opens first (once an hour): its words
  // agree with the sale; closed as a shopper would, after its 500 ms guard.
  const advert = page.getByRole('dialog', { name: 'Offer' });
  // lib.mjs closes it before any action; here it is looked at first.
  await page.removeLocatorHandler(advert);
  await page.goto('/');
  await advert.waitFor();
  assert.match(await advert.innerText(), /Flash Sale is on/);
  await shot(page, 'tour-advert');
  await page.waitForTimeout(600);
  await advert.getByRole('button', { name: 'Close' }).click();
  await advert.waitFor({ state: 'hidden' });
  const facts = await visit('/', 'home');
  const hero = page.locator('.hero').first();
  await hero.waitFor();
  const words = (await hero.innerText()).trim();
  assert.ok(words.length > 10, `the main banner says "${words}"`);
  assert.ok(facts.headings.includes('Featured'), 'the home page has its featured tiles');
  // Every tile (featured rooms, shop-by-look drawings, posts) has its
  // picture's shape: nothing of the room or the piece is cut off.
  const ratios = await page
    .locator('main ul.tiles img')
    .evaluateAll((imgs) =>
      imgs.filter((img) => img.naturalWidth > 0).map((img) => [img.currentSrc, img.naturalWidth / img.naturalHeight, img.clientWidth / img.clientHeight]),
    );
  assert.ok(ratios.length >= 8, 'the home page has its tiles');
  for (const [src, picture, tile] of ratios) assert.ok(Math.abs(picture - tile) < 0.05, `${src}: a ${picture.toFixed(2)} picture in a ${tile.toFixed(2)} tile`);
  watcher.check();
});

test('a category lists products whose names and details agree', async () => {
  await visit('/c/beds', 'category');
  const cards = page.locator('main li.card h3');
  assert.ok((await cards.count()) >= 6, 'the beds category lists beds');
  for (const title of await cards.allTextContents()) assert.match(title, /Bed|Khat|Divan/, `"${title}" among beds`);
  watcher.check();
});

test('three products, one with a 360° view and a video that plays after a tap', async () => {
  const [[video]] = rows(
    "SELECT p.seo_url FROM product p JOIN product_video v ON v.product_id = p.id WHERE p.is_active = 1 AND v.url LIKE '/storage/%' AND EXISTS (SELECT 1 FROM product_360_frame f WHERE f.product_id = p.id) ORDER BY p.id LIMIT 1",
  );
  assert.ok(video, 'the demo shop has a product with a 360° view and a video');
  const [[table]] = rows(
    "SELECT p.seo_url FROM product p JOIN product_category pc ON pc.product_id = p.id AND pc.is_primary JOIN category c ON c.id = pc.category_id WHERE p.is_active = 1 AND c.seo_url LIKE 'dining%' ORDER BY p.id LIMIT 1",
  );
  const [[wardrobe]] = rows(
    "SELECT p.seo_url FROM product p JOIN product_category pc ON pc.product_id = p.id AND pc.is_primary JOIN category c ON c.id = pc.category_id WHERE p.is_active = 1 AND c.seo_url = 'wardrobes' ORDER BY p.id LIMIT 1",
  );
  for (const [slug, name] of [
    [table, 'product-table'],
    [wardrobe, 'product-wardrobe'],
  ]) {
    assert.ok(slug, name);
    await visit(`/product/${slug}`, name);
    watcher.check();
  }

  await visit(`/product/${video}`, 'product-video');
  // The island's button, with the video's poster beside it; nothing is
  // loaded from elsewhere, and the video file only after the tap.
  const watch = page.getByRole('button', { name: '▶ Watch the video' });
  await watch.scrollIntoViewIfNeeded();
  const poster = watch.locator('img');
  assert.ok(await poster.evaluate((img) => img.complete && img.naturalWidth > 0), 'the poster shows');
  assert.equal(await page.locator('iframe').count(), 0, 'no embedded player');
  const requested = [];
  page.on('request', (r) => requested.push(r.url()));
  assert.equal(await page.locator('video').count(), 0, 'no video before the tap');
  await watch.tap();
  const player = page.locator('video');
  await player.waitFor();
  const src = await player.getAttribute('src');
  assert.match(src ?? '', /^\/storage\/videos\/.+\.webm$/);
  assert.ok(await player.getAttribute('poster'), 'the player has the poster');
  await page.waitForFunction(() => {
    const v = document.querySelector('video');
    return v && v.readyState > 0 && v.duration > 1 && v.currentTime > 0;
  });
  const state = await player.evaluate((v) => ({ readyState: v.readyState, duration: v.duration, width: v.videoWidth, error: v.error?.code ?? 0 }));
  assert.ok(state.readyState > 0 && state.width > 0 && state.error === 0, JSON.stringify(state));
  assert.ok(
    requested.some((u) => u.startsWith(`${BASE}/storage/videos/`)),
    'the video came from the shop',
  );
  await shot(page, 'tour-product-video-playing');
  // The 360° view of the same piece turns in the same colour.
  await page.getByRole('button', { name: '360° view' }).tap();
  const frame = page.getByRole('slider').locator('img');
  await frame.waitFor();
  await page.waitForFunction(() => {
    const img = document.querySelector('[role=slider] img');
    return img && img.complete && img.naturalWidth > 0;
  });
  await shot(page, 'tour-product-360');
  watcher.check();
});

test('a product set, a policy page and a blog post read as a shop would write them', async () => {
  const [[set]] = rows('SELECT slug FROM product_set ORDER BY id LIMIT 1');
  await visit(`/product-set/${set}`, 'set');
  watcher.check();

  const policy = await visit('/page/delivery-policy', 'policy');
  assert.ok(policy.headings.length >= 4, 'the delivery policy has sections');
  for (const fact of ['72 hours', '৳3,000']) assert.ok(policy.text.includes(fact), `the delivery policy says ${fact}`);
  watcher.check();

  const [[post]] = rows("SELECT seo_url FROM post WHERE kind = 'blog' ORDER BY id LIMIT 1");
  const blog = await visit(`/blogs/${post}`, 'blog');
  assert.ok(blog.headings.length >= 3, 'the post has sections');
  assert.ok(blog.text.split(/\n+/).filter((l) => l.length > 120).length >= 3, 'the post has several paragraphs');
  assert.ok((await page.locator('main a[href^="/product/"]').count()) >= 1, 'the post links the products it speaks of');
  watcher.check();
});
