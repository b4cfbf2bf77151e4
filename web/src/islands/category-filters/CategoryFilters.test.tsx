import { act, fireEvent, screen } from '@testing-library/react';
import { calledUrl, mockFetch } from '../../lib/test-utils';
import mount from './index';
import { readGroups, toggle } from './query';

const PAGE = `<main>
<div data-island="category-filters" data-when="visible"><details><summary>Filters</summary><h2>Colour</h2><ul class="chips"><li><a href="/c/beds?filterby_color=red" rel="nofollow">Red</a></li><li><a href="/c/beds?filterby_color=teak" rel="nofollow">Teak</a></li></ul><h2>Material</h2><ul class="chips"><li><a href="/c/beds?filterby_material=wood" rel="nofollow">Wood</a></li></ul></details></div><script type="application/json" data-island-props>{"seo_url":"beds"}</script>
<ul class="g"><li class="card"><a href="/product/old"><h3>Old card</h3></a></li></ul>
<nav class="pages" aria-label="Pages"><span>1</span><a href="/c/beds?page=2">2</a></nav>
<h2>Explore</h2></main>`;

const product = (id: number) => ({
  id,
  title: `Bed ${id}`,
  sub_title: 'Teak',
  seo_url: `bed-${id}`,
  product_code: `B-${id}`,
  local_selling_price: 60000,
  local_discount: 10,
  product_price_now: 54000,
  first_image: { full_size_directory: 'storage/b.jpg' },
});

const flush = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });

function setup(last_page = 3) {
  history.replaceState(null, '', '/c/beds');
  document.body.innerHTML = PAGE;
  window.dataLayer = undefined;
  const fetch = mockFetch({
    '/api/category/products': (url) => ({
      body: { products: { data: [product(1), product(2)], current_page: Number(url.searchParams.get('page') ?? 1), last_page, total: 40 } },
    }),
  });
  const el = document.querySelector<HTMLElement>('[data-island]')!;
  act(() => {
    mount(el, { seo_url: 'beds' });
  });
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe('category-filters', () => {
  it('reads the filter groups from the fallback links', () => {
    document.body.innerHTML = PAGE;
    expect(readGroups(document.querySelector('[data-island]')!)).toEqual([
      {
        label: 'Colour',
        param: 'filterby_color',
        values: [
          { slug: 'red', label: 'Red' },
          { slug: 'teak', label: 'Teak' },
        ],
      },
      { label: 'Material', param: 'filterby_material', values: [{ slug: 'wood', label: 'Wood' }] },
    ]);
    const q = toggle(new URLSearchParams('filterby_color=red&page=3'), 'filterby_color', 'teak');
    expect(q.toString()).toBe('filterby_color=red%7Cteak');
    expect(toggle(q, 'filterby_color', 'red').toString()).toBe('filterby_color=teak');
  });

  it('toggles a filter: updates the URL, fetches the products call and redraws the grid', async () => {
    const fetch = setup();
    expect(screen.getByText('Old card')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Teak' }));
    await flush();
    expect(location.pathname + location.search).toBe('/c/beds?filterby_color=teak');
    expect(Object.fromEntries(calledUrl(fetch).searchParams)).toEqual({ seo_url: 'beds', filterby_color: 'teak' });
    expect(screen.getByRole('button', { name: 'Teak' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.queryByText('Old card')).toBeNull();
    expect(screen.getByRole('link', { name: /Bed 1/ }).getAttribute('href')).toBe('/product/bed-1');
    expect(screen.getByText('40 products')).toBeTruthy();
    expect(document.querySelectorAll('#listing .card')).toHaveLength(2);
    expect(document.querySelector('#listing .pr')!.textContent).toBe('৳54,000৳60,000');
    expect(window.dataLayer!.at(-1)).toMatchObject({
      event: 'view_item_list',
      ecommerce: { item_list_name: 'beds', items: [{ item_id: 'B-1' }, { item_id: 'B-2' }] },
    });
    // The page's other content stays.
    expect(screen.getByText('Explore')).toBeTruthy();
  });

  it('sorts and pages through the URL, and follows Back', async () => {
    const fetch = setup();
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), { target: { value: 'price_asc' } });
    await flush();
    expect(location.search).toBe('?sort_by=price_asc');
    fireEvent.click(screen.getByRole('link', { name: '2' }));
    await flush();
    expect(location.search).toBe('?sort_by=price_asc&page=2');
    expect(Object.fromEntries(calledUrl(fetch, 1).searchParams)).toEqual({ seo_url: 'beds', sort_by: 'price_asc', page: '2' });
    expect(screen.getByText('2', { selector: '[aria-current=page]' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Next ›' }).getAttribute('href')).toBe('/c/beds?sort_by=price_asc&page=3');
    history.replaceState(null, '', '/c/beds?sort_by=price_desc');
    act(() => {
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await flush();
    expect(Object.fromEntries(calledUrl(fetch, 2).searchParams)).toEqual({ seo_url: 'beds', sort_by: 'price_desc' });
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Sort by' }).value).toBe('price_desc');
  });

  it('shows a failed products call', async () => {
    setup();
    mockFetch({ '/api/category/products': { status: 400, body: { success: false, message: 'sort_by must be one of …' } } });
    fireEvent.click(screen.getByRole('button', { name: 'Wood' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('sort_by must be one of …');
    expect(screen.getByText('Old card')).toBeTruthy();
  });
});
