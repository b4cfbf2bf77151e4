import { act, fireEvent, render, screen } from '@testing-library/react';
import { emit } from '../../lib/events';
import { cartLine, cartOf, cartSet } from '../../lib/fixtures';
import { calledUrl, callsTo, mockFetch, urlOf } from '../../lib/test-utils';
import { HeaderCounts } from './HeaderCounts';
import type { CartViewResponse } from './types';

const cartView: Pick<CartViewResponse, 'cart'> = {
  cart: cartOf(
    [
      cartLine({
        qty: 2,
        purchaseprice: 12500,
        item: { productcode: 'CHR-101-RED' },
        info: { id: 7, code: 'CHR-101', title: 'Akij Chair', seo_url: 'akij-chair', image_url: 'storage/c.jpg' },
      }),
    ],
    [
      cartSet({ id: 3, title: 'Dining set', slug: 'dining-set' }, [
        cartLine({ qty: 1, purchaseprice: 40000, info: { id: 11, code: 'TBL-1', title: 'Table' } }),
        cartLine({ qty: 4, purchaseprice: 9000, info: { id: 12, code: 'CHR-2', title: 'Chair' } }),
      ]),
    ],
    { totalprice: 101000 },
  ),
};

const flush = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });

const cartWrap = () => screen.getByRole('link', { name: /^Cart,/ }).parentElement!;

beforeEach(() => {
  window.dataLayer = undefined;
});
afterEach(() => vi.unstubAllGlobals());

describe('header-counts', () => {
  it('shows the compare, wishlist and cart counts, and counts again after a change', async () => {
    let cartQty = 2;
    const fetch = mockFetch({ '/api/cart/count-notification': () => ({ body: { compareCount: 1, wishCount: 3, cartQty } }) });
    render(<HeaderCounts />);
    await flush();
    expect(screen.getByRole('link', { name: 'Compare, 1 product' }).textContent).toBe('1');
    expect(screen.getByRole('link', { name: 'Wishlist, 3 products' }).textContent).toBe('3');
    expect(screen.getByRole('link', { name: 'Cart, 2 items' }).getAttribute('href')).toBe('/cart');
    expect(screen.getByRole('link', { name: 'My Profile' }).getAttribute('href')).toBe('/user/profile');
    cartQty = 3;
    act(() => emit('cart:changed', {}));
    await flush();
    expect(screen.getByRole('link', { name: 'Cart, 3 items' }).textContent).toBe('3');
    act(() => emit('wishlist:changed', {}));
    act(() => emit('compare:changed', {}));
    await flush();
    expect(callsTo(fetch, '/api/cart/count-notification')).toHaveLength(4);
  });

  it('counts pieces, not lines: three of one sofa are 3 items', async () => {
    mockFetch({ '/api/cart/count-notification': { body: { success: true, compareCount: 0, wishCount: 0, cartCount: 1, cartQty: 3 } } });
    render(<HeaderCounts />);
    await flush();
    expect(screen.getByRole('link', { name: 'Cart, 3 items' }).textContent).toBe('3');
  });

  it('shows a count the change carried without asking, and an older answer does not undo it', async () => {
    let answer: (() => void) | undefined;
    const fetch = mockFetch({
      '/api/cart/count-notification': () =>
        // The first count is asked before the add and answered after it.
        new Promise((resolve) => (answer = () => resolve({ body: { compareCount: 2, wishCount: 1, cartQty: 0 } }))),
    });
    render(<HeaderCounts />);
    await flush();
    expect(callsTo(fetch, '/api/cart/count-notification')).toHaveLength(1);
    act(() => emit('cart:changed', { count: 1 }));
    await flush();
    expect(screen.getByRole('link', { name: 'Cart, 1 item' }).textContent).toBe('1');
    expect(callsTo(fetch, '/api/cart/count-notification')).toHaveLength(1); // no second call
    answer!();
    await flush();
    expect(screen.getByRole('link', { name: 'Cart, 1 item' })).toBeTruthy(); // not back to 0
    expect(screen.getByRole('link', { name: 'Compare, 2 products' })).toBeTruthy(); // the rest is taken
    // A change without a count asks again, and that answer is shown.
    mockFetch({ '/api/cart/count-notification': { body: { compareCount: 2, wishCount: 1, cartQty: 0 } } });
    act(() => emit('cart:changed', {}));
    await flush();
    expect(screen.getByRole('link', { name: 'Cart, 0 items' })).toBeTruthy();
  });

  it('fetches the mini-cart on first hover only, and again after a change forces it', async () => {
    const fetch = mockFetch({ '/api/cart/count-notification': { body: { cartQty: 2 } }, '/api/cart/view': { body: cartView } });
    render(<HeaderCounts />);
    await flush();
    expect(callsTo(fetch, '/api/cart/view')).toHaveLength(0);
    fireEvent.mouseEnter(cartWrap());
    await flush();
    expect(callsTo(fetch, '/api/cart/view')).toHaveLength(1);
    expect(screen.getByRole('region', { name: 'Your cart' }).hidden).toBe(false);
    fireEvent.mouseLeave(cartWrap());
    await act(async () => {
      await new Promise((r) => setTimeout(r, 300));
    });
    expect(document.getElementById('mini-cart')!.hidden).toBe(true);
    fireEvent.mouseEnter(cartWrap());
    await flush();
    expect(callsTo(fetch, '/api/cart/view')).toHaveLength(1);
    fireEvent.mouseLeave(cartWrap());
    act(() => emit('cart:changed', {}));
    fireEvent.mouseEnter(cartWrap());
    await flush();
    expect(callsTo(fetch, '/api/cart/view')).toHaveLength(2);
  });

  it('lists items and sets with quantity, price and total, and links to checkout and the cart', async () => {
    mockFetch({ '/api/cart/count-notification': { body: { cartQty: 3 } }, '/api/cart/view': { body: cartView } });
    render(<HeaderCounts />);
    fireEvent.focus(screen.getByRole('link', { name: /^Cart,/ }));
    await flush();
    const panel = screen.getByRole('region', { name: 'Your cart' });
    expect(panel.textContent).toContain('Akij Chair2 × ৳12,500');
    expect(panel.textContent).toContain('Dining set');
    expect(panel.textContent).toContain('Chair4 × ৳9,000');
    expect(panel.textContent).toContain('Total ৳1,01,000');
    expect(screen.getByRole('link', { name: 'Checkout Now' }).getAttribute('href')).toBe('/checkout');
    expect(screen.getByRole('link', { name: 'View Cart' }).getAttribute('href')).toBe('/cart');
    fireEvent.keyDown(panel, { key: 'Escape' });
    expect(document.getElementById('mini-cart')!.hidden).toBe(true);
  });

  it('says the cart is empty', async () => {
    mockFetch({
      '/api/cart/count-notification': { body: { cartQty: 0 } },
      '/api/cart/view': { body: { cart: { psets: [], product_maximum_arrive_time: null } } },
    });
    render(<HeaderCounts />);
    fireEvent.mouseEnter(cartWrap());
    await flush();
    expect(screen.getByText('Your cart is currently empty')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Checkout Now' })).toBeNull();
  });

  it('removes a line with pid and pcode, a set with pid_codes, and refreshes', async () => {
    const fetch = mockFetch({
      '/api/cart/count-notification': { body: { cartQty: 3 } },
      '/api/cart/view': { body: cartView },
      '/api/cart/remove-cart-item': { body: { success: true } },
    });
    const changed = vi.fn();
    window.addEventListener('cart:changed', changed);
    render(<HeaderCounts />);
    fireEvent.mouseEnter(cartWrap());
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Akij Chair' }));
    await flush();
    const first = calledUrl(
      fetch,
      fetch.mock.calls.findIndex((c) => urlOf(c[0]).includes('remove-cart-item')),
    );
    expect(Object.fromEntries(first.searchParams)).toEqual({ pid: '7', pcode: 'CHR-101-RED' });
    expect(changed).toHaveBeenCalledTimes(1);
    expect(callsTo(fetch, '/api/cart/view')).toHaveLength(2);
    expect(window.dataLayer!.at(-1)).toMatchObject({
      event: 'remove_from_cart',
      ecommerce: { value: 25000, items: [{ item_id: 'CHR-101-RED', quantity: 2 }] },
    });

    fireEvent.click(screen.getByRole('button', { name: 'Remove the set Dining set' }));
    await flush();
    const removals = fetch.mock.calls.filter((c) => urlOf(c[0]).includes('remove-cart-item'));
    expect(new URL(urlOf(removals[1][0]), 'http://x').searchParams.get('pid_codes')).toBe('11:TBL-1,12:CHR-2');
    window.removeEventListener('cart:changed', changed);
  });

  it('shows a failed removal to the shopper', async () => {
    mockFetch({
      '/api/cart/count-notification': { body: { cartQty: 1 } },
      '/api/cart/view': { body: cartView },
      '/api/cart/remove-cart-item': { status: 500, body: { success: false, message: 'Something went wrong on our side. Please try again.' } },
    });
    render(<HeaderCounts />);
    fireEvent.mouseEnter(cartWrap());
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Akij Chair' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Something went wrong on our side. Please try again.');
  });
});
