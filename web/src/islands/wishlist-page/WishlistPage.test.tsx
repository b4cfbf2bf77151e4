import { act, fireEvent, render, screen } from '@testing-library/react';
import { calledUrl, mockFetch } from '../../lib/test-utils';
import { Wishlist as WishlistPage } from '../../components/Wishlist';

const flush = () =>
  act(async () => {
    for (let i = 0; i < 6; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });

const products = [
  { id: 4, title: 'Oslo Bed', sub_title: 'King', seo_url: 'oslo-bed', product_price_now: 52000 },
  { id: 4, title: 'Oslo Bed', sub_title: 'King', seo_url: 'oslo-bed', product_price_now: 52000 },
  { id: 9, title: 'Rio Sofa', seo_url: 'rio-sofa', product_price_now: 30000 },
];

afterEach(() => vi.unstubAllGlobals());

describe('wishlist-page', () => {
  it('lists each saved product once, adds one to the cart and removes another', async () => {
    const fetch = mockFetch({
      '/api/user/wishlist': { body: { products } },
      '/api/cart/add-to-cart': { body: { success: true, title: 'Oslo Bed', product_code: 'B-4', purchaseprice: 52000 } },
      '/api/user/remove-wishlist': { body: { success: true } },
    });
    const events: string[] = [];
    const rec = (e: Event) => events.push(e.type);
    window.addEventListener('cart:changed', rec);
    window.addEventListener('wishlist:changed', rec);
    render(<WishlistPage />);
    await flush();
    expect(screen.getAllByRole('link', { name: 'Oslo Bed' })).toHaveLength(1);
    fireEvent.click(screen.getAllByRole('button', { name: 'Add to cart' })[0]);
    await flush();
    expect(Object.fromEntries(calledUrl(fetch, 1).searchParams)).toEqual({ main_pid: '4', qty: '1' });
    expect(screen.getByText('Added to your cart: Oslo Bed.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Rio Sofa from the wishlist' }));
    await flush();
    expect(calledUrl(fetch, 2).searchParams.get('pid')).toBe('9');
    expect(screen.queryByRole('link', { name: 'Rio Sofa' })).toBeNull();
    expect(events).toEqual(['cart:changed', 'wishlist:changed']);
    window.removeEventListener('cart:changed', rec);
    window.removeEventListener('wishlist:changed', rec);
  });

  it('asks a guest to sign in, and shows cart errors', async () => {
    mockFetch({ '/api/user/wishlist': { status: 401, body: { message: 'Unauthenticated.' } } });
    const { unmount } = render(<WishlistPage />);
    await flush();
    expect(screen.getByRole('link', { name: 'sign in' }).getAttribute('href')).toBe('/user/login');
    unmount();
    mockFetch({ '/api/user/wishlist': { body: { products } }, '/api/cart/add-to-cart': { status: 409, body: { success: false, message: 'Out of stock' } } });
    render(<WishlistPage />);
    await flush();
    fireEvent.click(screen.getAllByRole('button', { name: 'Add to cart' })[1]);
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Out of stock');
  });
});
