import { act, fireEvent, render, screen } from '@testing-library/react';
import { setAuthToken } from '../../lib/api';
import { navigate } from '../../lib/navigate';
import { calledUrl, mockFetch, sentJson, urlOf } from '../../lib/test-utils';
import { BuyButtons } from './BuyButtons';
import mount from './index';

vi.mock('../../lib/navigate', () => ({ navigate: vi.fn(), loginUrl: () => '/user/login?redirect=%2Fproduct%2Foslo-bed' }));

const product = { id: 42, code: 'BED-42', title: 'Oslo Bed', price: 52000, in_stock: true, pre_booking: false, disable_buy: false };

const flush = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });

const events: string[] = [];
const details: unknown[] = [];
const record = (e: Event) => {
  events.push(e.type);
  details.push((e as CustomEvent).detail);
};

beforeEach(() => {
  window.dataLayer = undefined;
  events.length = 0;
  details.length = 0;
  vi.mocked(navigate).mockClear();
  for (const t of ['cart:changed', 'wishlist:changed', 'compare:changed']) window.addEventListener(t, record);
});
afterEach(() => {
  for (const t of ['cart:changed', 'wishlist:changed', 'compare:changed']) window.removeEventListener(t, record);
  vi.unstubAllGlobals();
  setAuthToken(null);
});

describe('buy-buttons', () => {
  it('adds to the cart with main_pid, qty and variation_id, confirms, and tells the header the new count', async () => {
    const fetch = mockFetch({
      '/api/cart/add-to-cart': {
        body: {
          success: true,
          title: 'Oslo Bed',
          product_code: 'BED-42-K',
          purchaseprice: 52000,
          cat_name: 'Beds',
          sub_title: 'King',
          cartCount: 1,
          total_qty: 2,
        },
      },
    });
    render(<BuyButtons {...product} variation_id={9} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
    await flush();
    expect(Object.fromEntries(calledUrl(fetch).searchParams)).toEqual({ main_pid: '42', qty: '1', variation_id: '9' });
    expect(screen.getByText(/Added to your cart: Oslo Bed\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View cart' }).getAttribute('href')).toBe('/cart');
    expect(events).toEqual(['cart:changed']);
    expect(details).toEqual([{ count: 2 }]);
    expect(window.dataLayer!.at(-1)).toEqual({
      event: 'add_to_cart',
      ecommerce: {
        currency: 'BDT',
        value: 52000,
        shipping_tier: 'Ground',
        items: [{ affiliation: 'Regal', item_id: 'BED-42-K', item_name: 'Oslo Bed', price: 52000, quantity: 1, item_category: 'Beds' }],
      },
    });
  });

  it('shows cart errors to the shopper, and fires nothing', async () => {
    mockFetch({ '/api/cart/add-to-cart': { status: 409, body: { success: false, message: 'Only 0 left in stock' } } });
    render(<BuyButtons {...product} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Only 0 left in stock');
    expect(events).toEqual([]);
    expect(window.dataLayer).toBeUndefined();
    // The button works again for another try.
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Add to cart' }).disabled).toBe(false);
  });

  it('shows a cart error answered as 200 with success false, and a lost connection', async () => {
    mockFetch({ '/api/cart/add-to-cart': { body: { success: false, message: 'A pre-booking product cannot share the cart' } } });
    render(<BuyButtons {...product} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('A pre-booking product cannot share the cart');
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('No connection. Check your internet and try again.');
  });

  it('adds to the wishlist and only then fires add_to_wishlist', async () => {
    setAuthToken('7|signed-in');
    const fetch = mockFetch({ '/api/user/add-to-wishlist': { body: { success: true, product: { title: 'Oslo Bed' } } } });
    render(<BuyButtons {...product} />);
    fireEvent.click(screen.getByRole('button', { name: 'Wishlist' }));
    await flush();
    expect(calledUrl(fetch).searchParams.get('pid')).toBe('42');
    expect(screen.getByText(/Added to your wishlist\./)).toBeTruthy();
    expect(events).toEqual(['wishlist:changed']);
    expect(window.dataLayer!.at(-1)).toMatchObject({
      event: 'add_to_wishlist',
      ecommerce: { currency: 'BDT', value: 52000, items: [{ item_id: 'BED-42', item_name: 'Oslo Bed', quantity: 1 }] },
    });
  });

  it('tells a guest why the wishlist needs an account, with a sign-in link back to the product', async () => {
    const fetch = mockFetch({});
    render(<BuyButtons {...product} />);
    fireEvent.click(screen.getByRole('button', { name: 'Wishlist' }));
    await flush();
    expect(fetch).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe('Sign in to keep a wishlist. Sign in');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/user/login?redirect=%2Fproduct%2Foslo-bed');
    expect(navigate).not.toHaveBeenCalled();
    expect(window.dataLayer).toBeUndefined();
  });

  it('says the same when a sign-in has run out (401)', async () => {
    setAuthToken('7|expired');
    mockFetch({ '/api/user/add-to-wishlist': { status: 401, body: { message: 'Unauthenticated.' } } });
    render(<BuyButtons {...product} />);
    fireEvent.click(screen.getByRole('button', { name: 'Wishlist' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Sign in to keep a wishlist. Sign in');
    expect(navigate).not.toHaveBeenCalled();
    expect(window.dataLayer).toBeUndefined();
  });

  it('adds to compare', async () => {
    const fetch = mockFetch({ '/api/common/add-to-compare': { body: { success: true, product: { title: 'Oslo Bed' } } } });
    render(<BuyButtons {...product} />);
    fireEvent.click(screen.getByRole('button', { name: 'Compare' }));
    await flush();
    expect(calledUrl(fetch).pathname).toBe('/api/common/add-to-compare');
    expect(calledUrl(fetch).searchParams.get('pid')).toBe('42');
    expect(screen.getByRole('link', { name: 'Compare now' }).getAttribute('href')).toBe('/compare');
    expect(events).toEqual(['compare:changed']);
  });

  it('keeps the cart button disabled when buying is switched off, and says pre-book for pre-bookings', () => {
    const { unmount } = render(<BuyButtons {...product} disable_buy />);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Add to cart' }).disabled).toBe(true);
    unmount();
    render(<BuyButtons {...product} pre_booking />);
    expect(screen.getByRole('button', { name: 'Pre-book now' })).toBeTruthy();
  });

  it('records a product page visit for Recently viewed when it mounts, and not on a set page', async () => {
    const fetch = mockFetch({ '/api/product/recent-view': { body: { success: true } } });
    const el = document.createElement('div');
    document.body.append(el);
    mount(el, product);
    await flush();
    expect(calledUrl(fetch).pathname).toBe('/api/product/recent-view');
    expect(sentJson(fetch.mock.calls[0][1])).toEqual({ pid: 42 });
    fetch.mockClear();
    const setEl = document.createElement('div');
    document.body.append(setEl);
    mount(setEl, { set_id: 3, slug: 'oslo-set', items: [], fabrics: [] });
    await flush();
    expect(fetch.mock.calls.some((c) => urlOf(c[0]).includes('recent-view'))).toBe(false);
  });
});
