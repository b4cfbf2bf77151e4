import { act, fireEvent, render, screen } from '@testing-library/react';
import { callsTo, mockFetch, urlOf } from '../../lib/test-utils';
import { SetButtons } from './SetButtons';

const flush = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });

const bed = { id: 11, title: 'Oslo Bed', seo_url: 'oslo-bed', qty: 5, price_now: 40000, stock_status: 'in_stock', product_set_qty: 1, disable_buy: false };
const chair = { id: 12, title: 'Oslo Chair', seo_url: 'oslo-chair', qty: 9, price_now: 9000, stock_status: 'in_stock', product_set_qty: 4, disable_buy: false };
const fabrics = [
  { id: 7, title: 'Velvet Maroon', image_url: 'storage/velvet.webp' },
  { id: 8, title: 'Linen Grey', image_url: null },
];
const props = { set_id: 3, slug: 'oslo-set', items: [bed, chair], fabrics };

const events: unknown[] = [];
const record = (e: Event) => events.push((e as CustomEvent).detail);
beforeEach(() => {
  events.length = 0;
  window.addEventListener('cart:changed', record);
});
afterEach(() => {
  window.removeEventListener('cart:changed', record);
  vi.unstubAllGlobals();
});

const live = (products: unknown[], extra: Parameters<typeof mockFetch>[0] = {}, withFabrics = fabrics) =>
  mockFetch({
    '/api/product/product-set-products': { body: { term: null, products } },
    '/api/product/product-set-fabrics': { body: { fabrics: withFabrics.map((f) => ({ ...f, images: [] })) } },
    ...extra,
  });

const addButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Add the set to cart' });

describe('set buttons', () => {
  it('checks the stock again before offering the add, then sends the chosen fabric', async () => {
    const fetch = live([bed, chair], {
      '/api/cart/add-to-cart': { body: { success: true, main_pid: [11, 12], pset_id: 3, fabric_id: 8, cartCount: 1, total_qty: 2 } },
    });
    render(<SetButtons {...props} />);
    // As the page was generated, until the live answer comes.
    expect(addButton().disabled).toBe(true);
    expect(screen.getByText('Checking stock…')).toBeTruthy();
    await flush();
    expect(addButton().disabled).toBe(false);
    expect(screen.getByText('In stock: all 2 items of the set.')).toBeTruthy();
    // No fabric chosen: it asks for one, and adds nothing.
    fireEvent.click(addButton());
    expect(screen.getByRole('alert').textContent).toBe('Choose a fabric first.');
    expect(callsTo(fetch, '/api/cart/add-to-cart')).toHaveLength(0);
    const radios = screen.getAllByRole<HTMLInputElement>('radio');
    expect(radios.map((r) => r.closest('label')?.textContent)).toEqual(['Velvet Maroon', 'Linen Grey']);
    expect(screen.getByRole('group', { name: 'Choose a fabric' })).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Linen Grey' }));
    fireEvent.click(addButton());
    await flush();
    const add = new URL(urlOf(callsTo(fetch, '/api/cart/add-to-cart')[0][0]), 'http://shop.test');
    expect(Object.fromEntries(add.searchParams)).toEqual({ pset_id: '3', fabric_id: '8' });
    expect(screen.getByText(/The set is in your cart, in Linen Grey\./)).toBeTruthy();
    expect(events).toEqual([{ count: 2 }]);
  });

  it('names the items that cannot be supplied and offers no add, even when the page said in stock', async () => {
    live([bed, { ...chair, qty: 2 }]);
    render(<SetButtons {...props} />);
    await flush();
    expect(addButton().disabled).toBe(true);
    expect(screen.getByText('Out of stock: Oslo Chair')).toBeTruthy();
    expect(screen.getByText('Too few in stock')).toBeTruthy();
    expect(addButton().getAttribute('aria-describedby')).toBeTruthy();
  });

  it('shows the cart’s refusal and checks again', async () => {
    const fetch = live(
      [bed, chair],
      { '/api/cart/add-to-cart': { status: 409, body: { success: false, message: 'This set cannot be added now: Oslo Bed is out of stock.' } } },
      [],
    );
    render(<SetButtons {...props} fabrics={[]} />);
    await flush();
    fireEvent.click(addButton());
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('This set cannot be added now: Oslo Bed is out of stock.');
    expect(callsTo(fetch, '/api/product/product-set-products')).toHaveLength(2);
    expect(events).toEqual([]);
  });
});
