import { act, fireEvent, render, screen, within } from '@testing-library/react';
import type { Cart } from '../../lib/cart';
import { cartLine, cartOf, cartSet } from '../../lib/fixtures';
import { navigate } from '../../lib/navigate';
import { callsTo, mockFetch, type Route, sentJson, urlOf } from '../../lib/test-utils';
import { CartPage, COUPON_KEY, DISTRICT_KEY } from './CartPage';

vi.mock('../../lib/navigate', () => ({ navigate: vi.fn() }));

const fullCart: Cart = cartOf(
  [
    cartLine({
      qty: 2,
      purchaseprice: 12500,
      item: { productcode: 'CHR-101-RED', sub_title: 'Red' },
      info: { id: 7, code: 'CHR-101', title: 'Akij Chair', seo_url: 'akij-chair' },
    }),
  ],
  [cartSet({ id: 3, title: 'Dining set', slug: 'dining-set' }, [cartLine({ qty: 1, purchaseprice: 40000, info: { id: 11, code: 'TBL-1', title: 'Table' } })])],
  { totalprice: 65000, discount: 10, discount_type: 'Percentage' },
);

const flush = () =>
  act(async () => {
    for (let i = 0; i < 6; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });

function api(overrides: Record<string, Route> = {}) {
  return mockFetch({
    '/api/cart/view': { body: { success: true, cart: fullCart, district: null, address: {} } },
    '/api/common/districts': { body: { districts: [{ district: 'Dhaka' }, { district: 'Chattogram' }] } },
    '/api/cart/get-delivery-charge': (url) => ({ body: { deliverycharge: url.searchParams.get('district') === 'Dhaka' ? 500 : 1200 } }),
    ...overrides,
  });
}

beforeEach(() => {
  localStorage.clear();
  window.dataLayer = undefined;
  vi.mocked(navigate).mockClear();
});
afterEach(() => vi.unstubAllGlobals());

describe('cart-page', () => {
  it('lists items and sets with quantity, prices and totals, discount included', async () => {
    api();
    render(<CartPage />);
    expect(screen.getByText('Loading your cart…')).toBeTruthy();
    await flush();
    const row = screen.getByRole('link', { name: 'Akij Chair' }).closest('tr')!;
    expect(within(row).getByRole('spinbutton', { name: 'Quantity of Akij Chair' })).toHaveProperty('value', '2');
    expect(row.textContent).toContain('৳12,500');
    expect(row.textContent).toContain('৳25,000');
    expect(screen.getByRole('heading', { name: 'Dining set' })).toBeTruthy();
    const totals = document.querySelector('dl')!.textContent;
    expect(totals).toContain('Subtotal৳65,000');
    expect(totals).toContain('Discount−৳6,500');
    expect(totals).toContain('DeliveryChoose a district');
    expect(totals).toContain('Total৳58,500');
  });

  it('changes a quantity with cart/update and reloads', async () => {
    const fetch = api({ '/api/cart/update': { body: { success: true, message: 'Cart updated' } } });
    render(<CartPage />);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'One more Akij Chair' }));
    await flush();
    expect(sentJson(callsTo(fetch, '/api/cart/update')[0][1])).toEqual({ items: { 'CHR-101-RED': { id: 7, code: 'CHR-101-RED', qty: 3 } } });
    expect(callsTo(fetch, '/api/cart/view')).toHaveLength(2);
    const input = screen.getByRole('spinbutton', { name: 'Quantity of Akij Chair' });
    fireEvent.change(input, { target: { value: '500' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await flush();
    expect(sentJson<{ items: Record<string, { qty: number }> }>(callsTo(fetch, '/api/cart/update')[1][1]).items['CHR-101-RED'].qty).toBe(99);
    expect(screen.getByRole('alert').textContent).toBe('You can buy at most 99 at a time. For more, please contact us.');
  });

  it('says why a quantity of 0 or −1 is not taken, keeps the line, and offers to remove it', async () => {
    const fetch = api({ '/api/cart/remove-cart-item': { body: { success: true } } });
    render(<CartPage />);
    await flush();
    const input = screen.getByRole<HTMLInputElement>('spinbutton', { name: 'Quantity of Akij Chair' });
    for (const typed of ['0', '-1']) {
      fireEvent.change(input, { target: { value: typed } });
      fireEvent.keyDown(input, { key: 'Enter' });
      await flush();
      // Beside the box, tied to it, and the box shows the cart's quantity again.
      const note = screen.getByRole('alert');
      expect(note.textContent).toBe('Quantity must be at least 1. Remove Akij Chair from the cart');
      expect(input.getAttribute('aria-describedby')).toBe(note.id);
      expect(input.value).toBe('2');
      expect(input.closest('td')!.contains(note)).toBe(true);
    }
    fireEvent.blur(input);
    await flush();
    expect(callsTo(fetch, '/api/cart/update')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Akij Chair from the cart' }));
    await flush();
    expect(new URL(urlOf(callsTo(fetch, '/api/cart/remove-cart-item')[0][0]), 'http://x').search).toBe('?pid=7&pcode=CHR-101-RED');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a failed change to the shopper', async () => {
    api({ '/api/cart/update': { status: 409, body: { success: false, message: 'Only 2 left in stock' } } });
    render(<CartPage />);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'One more Akij Chair' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Only 2 left in stock');
  });

  it('shows the cart’s quantity again after a refused change, and the message goes with the next step', async () => {
    api({ '/api/cart/update': { status: 409, body: { success: false, message: 'Only 50 left in stock' } } });
    render(<CartPage />);
    await flush();
    const input = screen.getByRole<HTMLInputElement>('spinbutton', { name: 'Quantity of Akij Chair' });
    fireEvent.change(input, { target: { value: '60' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Only 50 left in stock');
    expect(input.value).toBe('2');
    fireEvent.change(screen.getByRole('combobox', { name: 'Deliver to (district)' }), { target: { value: 'Dhaka' } });
    await flush();
    expect(screen.queryByText('Only 50 left in stock')).toBeNull();
  });

  it('removes a line and a whole set', async () => {
    const fetch = api({ '/api/cart/remove-cart-item': { body: { success: true } } });
    render(<CartPage />);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Akij Chair' }));
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Remove the set' }));
    await flush();
    const removals = callsTo(fetch, '/api/cart/remove-cart-item').map((c) => new URL(urlOf(c[0]), 'http://x').search);
    expect(removals).toEqual(['?pid=7&pcode=CHR-101-RED', '?pid_codes=11%3ATBL-1']);
  });

  it('applies a coupon and shows a refused one', async () => {
    let ok = true;
    const fetch = api({
      '/api/cart/coupon-apply': () =>
        ok
          ? { body: { success: true, message: 'Coupon applied successfully' } }
          : { status: 422, body: { success: false, message: 'Coupon Code Doesnt Exist' } },
    });
    render(<CartPage />);
    await flush();
    fireEvent.change(screen.getByLabelText('Coupon code'), { target: { value: ' EID10 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await flush();
    expect(sentJson(callsTo(fetch, '/api/cart/coupon-apply')[0][1])).toEqual({ coupon: 'EID10' });
    expect(screen.getByRole('status').textContent).toBe('Coupon applied successfully');
    expect(localStorage.getItem(COUPON_KEY)).toBe('EID10');
    ok = false;
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Coupon Code Doesnt Exist');
    expect(localStorage.getItem(COUPON_KEY)).toBeNull();
  });

  it('adds the delivery charge of the chosen district, and remembers it for checkout', async () => {
    api();
    render(<CartPage />);
    await flush();
    fireEvent.change(screen.getByRole('combobox', { name: 'Deliver to (district)' }), { target: { value: 'Chattogram' } });
    await flush();
    expect(document.querySelector('dl')!.textContent).toContain('Delivery৳1,200');
    expect(document.querySelector('dl')!.textContent).toContain('Total৳59,700');
    expect(localStorage.getItem(DISTRICT_KEY)).toBe('Chattogram');
  });

  it('takes the district saved with the cart when this device has none (back after a failed payment)', async () => {
    api({ '/api/cart/view': { body: { success: true, cart: fullCart, district: 'Chattogram', address: { district: 'Chattogram' } } } });
    render(<CartPage />);
    await flush();
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Deliver to (district)' }).value).toBe('Chattogram');
    expect(document.querySelector('dl')!.textContent).toContain('Delivery৳1,200');
  });

  it('keeps the district chosen on this device over the cart’s', async () => {
    localStorage.setItem(DISTRICT_KEY, 'Dhaka');
    api({ '/api/cart/view': { body: { success: true, cart: fullCart, district: 'Chattogram', address: { district: 'Chattogram' } } } });
    render(<CartPage />);
    await flush();
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Deliver to (district)' }).value).toBe('Dhaka');
    expect(document.querySelector('dl')!.textContent).toContain('Delivery৳500');
  });

  it('records the cart for checkout with the coupon, then goes to /checkout', async () => {
    localStorage.setItem(COUPON_KEY, 'EID10');
    const fetch = api({ '/api/cart/checkout-address': { body: { success: true } } });
    render(<CartPage />);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Proceed to checkout' }));
    await flush();
    expect(new URL(urlOf(callsTo(fetch, '/api/cart/checkout-address')[0][0]), 'http://x').searchParams.get('coupon')).toBe('EID10');
    expect(navigate).toHaveBeenCalledWith('/checkout');
  });

  it('says when the cart is empty, and offers a retry when it cannot load', async () => {
    api({ '/api/cart/view': { body: { cart: { psets: [], product_maximum_arrive_time: null } } } });
    const { unmount } = render(<CartPage />);
    await flush();
    expect(screen.getByText('Your cart is currently empty')).toBeTruthy();
    unmount();
    api({ '/api/cart/view': { status: 503, body: { success: false, message: 'Service unavailable' } } });
    render(<CartPage />);
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Service unavailable');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
