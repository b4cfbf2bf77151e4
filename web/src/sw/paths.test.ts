// @vitest-environment node
import crawl from '../../../generator/src/pages/crawl.rs?raw';
import { isPublicPage } from './paths';

const ORIGIN = 'https://shop.test';
const page = (href: string) => isPublicPage(new URL(href, ORIGIN), ORIGIN);

describe('isPublicPage', () => {
  it('takes the public pages: home, products, categories, blogs, content pages, listing pages', () => {
    for (const href of ['/', '/product/oak-bed', '/c/beds', '/c/products?page=2', '/blogs/care', '/page/contact', '/gallery', '/about-us']) {
      expect(page(href), href).toBe(true);
    }
  });

  it('refuses every path robots.txt disallows (the generator’s list, read from crawl.rs)', () => {
    const block = crawl.match(/pub const DISALLOW: &\[&str\] = &\[([\s\S]*?)\];/)?.[1] ?? '';
    const paths = [...block.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
    expect(paths.length).toBeGreaterThan(10);
    for (const p of paths) {
      // `/*?*keyword=` stands for any page with a keyword query.
      const href = p.includes('*') ? p.replace('/*?*', '/c/products?') + 'sofa' : p;
      expect(page(href), href).toBe(false);
      if (!p.includes('*')) expect(page(`${p.replace(/\/$/, '')}/x`), `${p}/x`).toBe(false);
    }
  });

  it('refuses the API, files, assets, images, state-changing links and other origins', () => {
    for (const href of [
      '/api',
      '/api/product/details/oak-bed',
      '/sitemap.xml',
      '/robots.txt',
      '/assets/loader-abc.js',
      '/storage/p/1.jpg',
      '/sw.js',
      '/offline',
      '/product/oak-bed?add-to-cart=1',
      '/logout',
      'https://other.test/product/oak-bed',
      'http://shop.test/product/oak-bed',
    ]) {
      expect(page(href), href).toBe(false);
    }
  });
});
