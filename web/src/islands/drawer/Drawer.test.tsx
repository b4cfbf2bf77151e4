import { act, fireEvent, render, screen } from '@testing-library/react';
import { mockFetch } from '../../lib/test-utils';
import { Drawer } from './Drawer';

const NAV = `<nav id="menu" class="dr" aria-label="All menus"><a class="x" href="#" aria-label="Close menu">×</a>
<ul><li><a href="/c/products">All Products</a></li>
<li><a href="/c/bedroom">Bedroom</a><ul><li><a href="/c/beds">Beds</a></li><li><a href="/c/wardrobes">Wardrobes</a></li></ul></li>
<li><a href="/c/dining">Dining</a><ul><li><a href="/c/tables">Tables</a></li></ul></li></ul>
<div class="rv" data-recently-viewed hidden></div></nav>`;

const flush = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });

function setup(wide = false) {
  document.body.innerHTML = NAV;
  vi.stubGlobal('matchMedia', () => ({ matches: wide, addEventListener() {}, removeEventListener() {} }));
  const fetch = mockFetch({
    '/api/product/recent-views-product': { body: { products: [{ title: 'Oslo Bed', seo_url: 'oslo-bed', image_url: 'storage/b.jpg' }] } },
  });
  const view = render(<Drawer />, { container: document.body.appendChild(document.createElement('div')) });
  return { fetch, view, nav: document.getElementById('menu')!, menu: screen.getByRole('button', { name: 'Menu' }) };
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.className = '';
});

describe('drawer', () => {
  it('opens from the menu link, flags the page, moves focus in, and closes on Escape', async () => {
    const { nav, menu } = setup();
    expect(nav.hasAttribute('inert')).toBe(true);
    fireEvent.click(menu);
    expect(nav.hasAttribute('data-open')).toBe(true);
    expect(nav.hasAttribute('inert')).toBe(false);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    expect(document.body.classList.contains('modal-open')).toBe(true);
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Close menu' }));
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(nav.hasAttribute('data-open')).toBe(false);
    expect(document.body.classList.contains('modal-open')).toBe(false);
    expect(document.activeElement).toBe(menu);
    await flush();
  });

  it('closes on the × link and on the backdrop', async () => {
    const { nav, menu } = setup();
    fireEvent.click(menu);
    fireEvent.click(screen.getByRole('link', { name: 'Close menu' }));
    expect(nav.hasAttribute('data-open')).toBe(false);
    fireEvent.click(menu);
    fireEvent.click(document.body.lastElementChild!);
    expect(nav.hasAttribute('data-open')).toBe(false);
    await flush();
  });

  it('turns sub-menus into accordions, one open per level, and widens to 50rem on wide screens', async () => {
    const { nav, menu } = setup(true);
    fireEvent.click(menu);
    const bedroom = screen.getByRole('button', { name: 'Show Bedroom' });
    const dining = screen.getByRole('button', { name: 'Show Dining' });
    expect(bedroom.getAttribute('aria-expanded')).toBe('false');
    expect(bedroom.parentElement!.dataset.acc).toBe('closed');
    fireEvent.click(bedroom);
    expect(bedroom.parentElement!.dataset.acc).toBe('open');
    expect(nav.hasAttribute('data-sub')).toBe(true);
    fireEvent.click(dining);
    expect(bedroom.parentElement!.dataset.acc).toBe('closed');
    expect(dining.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(dining);
    expect(nav.hasAttribute('data-sub')).toBe(false);
    await flush();
  });

  it('keeps Tab inside the open drawer, skipping closed sub-menus', async () => {
    const { menu } = setup();
    fireEvent.click(menu);
    const last = screen.getByRole('link', { name: 'Dining' });
    last.focus();
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Close menu' }));
    fireEvent.keyDown(document, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
    await flush();
  });

  it('fetches the Recently viewed strip once, on first opening', async () => {
    const { fetch, menu, nav } = setup();
    await flush();
    expect(fetch).not.toHaveBeenCalled();
    fireEvent.click(menu);
    await flush();
    const strip = nav.querySelector<HTMLElement>('[data-recently-viewed]')!;
    expect(strip.hidden).toBe(false);
    expect(screen.getByRole('link', { name: 'Oslo Bed' }).getAttribute('href')).toBe('/product/oslo-bed');
    fireEvent.click(menu);
    fireEvent.click(menu);
    await flush();
    expect(fetch).toHaveBeenCalledOnce();
  });
});
