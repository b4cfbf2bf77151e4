import { act, fireEvent, screen } from '@testing-library/react';
import { calledUrl, callsTo, mockFetch, urlOf } from '../../lib/test-utils';
import mount from './index';
import { priceProblem, toggle, withPrice } from './query';

const PAGE = `<main>
<div data-island="category-filters" data-when="visible"><details><summary>Filters</summary><h2>Colour</h2><ul class="chips"><li><a href="/c/beds?filterby_color=red" rel="nofollow">Red</a></li><li><a href="/c/beds?filterby_color=teak" rel="nofollow">Teak</a></li></ul><h2>Material</h2><ul class="chips"><li><a href="/c/beds?filterby_material=wood" rel="nofollow">Wood</a></li></ul></details></div><script type="application/json" data-island-props>{}</script>
<ul class="g"><li class="card"><a href="/product/old"><h3>Old card</h3></a></li></ul>
<nav class="pages" aria-label="Pages"><span>1</span><a href="/c/beds?page=2">2</a></nav>
<h2>Explore</h2></main>`;

const PROPS = {
  seo_url: 'beds',
  groups: [
    {
      label: 'Colour',
      param: 'filterby_color',
      values: [
        { slug: 'red', label: 'Red', count: 3 },
        { slug: 'teak', label: 'Teak', count: 12 },
      ],
    },
    { label: 'Material', param: 'filterby_material', values: [{ slug: 'wood', label: 'Wood', count: 15 }] },
  ],
  price_low: 9000,
  price_high: 90000,
};

/** The filters answer under `filterby_color=teak`: its own values keep their counts, the others count with it. */
const FILTERS = {
  filters_cat: { parent_cat: { id: 2, name: 'Beds', seo_url: 'beds', parent: 1 }, sub_menu: [], child_menu: null },
  filters_att: [
    {
      id: 1,
      field_label: 'Colour',
      field_name: 'color',
      values: [
        { id: 10, value: 'Red', slug: 'red', count: 3 },
        { id: 11, value: 'Teak', slug: 'teak', count: 12 },
      ],
    },
    { id: 2, field_label: 'Material', field_name: 'material', values: [{ id: 20, value: 'Wood', slug: 'wood', count: 7 }] },
  ],
  price: { min: 12000, max: 80000 },
};

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
    '/api/category/filters': { body: FILTERS },
  });
  const el = document.querySelector<HTMLElement>('[data-island]')!;
  act(() => {
    mount(el, PROPS);
  });
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe('category-filters', () => {
  it('toggles values back to page 1, and checks a price range before it goes into the query', () => {
    const q = toggle(new URLSearchParams('filterby_color=red&page=3'), 'filterby_color', 'teak');
    expect(q.toString()).toBe('filterby_color=red%7Cteak');
    expect(toggle(q, 'filterby_color', 'red').toString()).toBe('filterby_color=teak');
    expect(priceProblem('', '')).toBeNull();
    expect(priceProblem('100', '100')).toBeNull();
    expect(priceProblem('1.5', '')).toEqual({ field: 'price_min', text: 'Min price must be a whole number of taka.' });
    expect(priceProblem('', '-3')).toEqual({ field: 'price_max', text: 'Max price must be a whole number of taka.' });
    expect(priceProblem('900', '100')).toEqual({ field: 'price_min', text: 'Min price must not be above max price.' });
    expect(withPrice(new URLSearchParams('price_max=5&page=2&sort_by=price_asc'), ' 0100 ', '').toString()).toBe('sort_by=price_asc&price_min=100');
  });

  it('toggles a filter: updates the URL, fetches the products call and redraws the grid', async () => {
    const fetch = setup();
    expect(screen.getByText('Old card')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Teak (12)' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Teak (12)' }));
    await flush();
    expect(location.pathname + location.search).toBe('/c/beds?filterby_color=teak');
    expect(Object.fromEntries(calledUrl(fetch).searchParams)).toEqual({ seo_url: 'beds', filterby_color: 'teak' });
    expect(Object.fromEntries(calledUrl(fetch, 1).searchParams)).toEqual({ seo_url: 'beds', filterby_color: 'teak' });
    // The counts under the chosen filter come from category/filters.
    expect(screen.getByRole('button', { name: 'Wood (7)' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Teak (12)' }).getAttribute('aria-pressed')).toBe('true');
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
    expect(Object.fromEntries(new URL(urlOf(callsTo(fetch, '/api/category/products')[1][0]), 'http://x').searchParams)).toEqual({
      seo_url: 'beds',
      sort_by: 'price_asc',
      page: '2',
    });
    expect(screen.getByText('2', { selector: '[aria-current=page]' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Next ›' }).getAttribute('href')).toBe('/c/beds?sort_by=price_asc&page=3');
    history.replaceState(null, '', '/c/beds?sort_by=price_desc');
    act(() => {
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await flush();
    expect(Object.fromEntries(new URL(urlOf(callsTo(fetch, '/api/category/products')[2][0]), 'http://x').searchParams)).toEqual({
      seo_url: 'beds',
      sort_by: 'price_desc',
    });
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Sort by' }).value).toBe('price_desc');
  });

  it('shows a failed products call', async () => {
    setup();
    mockFetch({ '/api/category/products': { status: 400, body: { success: false, message: 'sort_by must be one of …' } } });
    fireEvent.click(screen.getByRole('button', { name: 'Wood (15)' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('sort_by must be one of …');
    expect(screen.getByText('Old card')).toBeTruthy();
  });

  it('applies a price range to the URL and the products call, and refuses nonsense without a call', async () => {
    const fetch = setup();
    const min = screen.getByRole<HTMLInputElement>('textbox', { name: 'Min' });
    const max = screen.getByRole<HTMLInputElement>('textbox', { name: 'Max' });
    expect(min.placeholder).toBe('9000');
    expect(max.placeholder).toBe('90000');
    fireEvent.change(min, { target: { value: '50000' } });
    fireEvent.change(max, { target: { value: '20000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply price' }));
    expect(screen.getByRole('alert').textContent).toBe('Min price must not be above max price.');
    expect(min.getAttribute('aria-invalid')).toBe('true');
    expect(fetch).not.toHaveBeenCalled();
    fireEvent.change(min, { target: { value: '20000' } });
    fireEvent.change(max, { target: { value: '50000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply price' }));
    await flush();
    expect(location.search).toBe('?price_min=20000&price_max=50000');
    expect(Object.fromEntries(calledUrl(fetch).searchParams)).toEqual({ seo_url: 'beds', price_min: '20000', price_max: '50000' });
    expect(screen.queryByRole('alert')).toBeNull();
    // The bounds follow the answer; Clear filters takes the range away too.
    expect(min.placeholder).toBe('12000');
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await flush();
    expect(location.search).toBe('');
    expect(min.value).toBe('');
  });
});
