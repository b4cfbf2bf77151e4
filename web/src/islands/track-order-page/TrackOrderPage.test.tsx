import { act, fireEvent, render, screen } from '@testing-library/react';
import { calledUrl, mockFetch } from '../../lib/test-utils';
import { TrackOrderPage } from './TrackOrderPage';

const flush = () =>
  act(async () => {
    for (let i = 0; i < 6; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });
afterEach(() => vi.unstubAllGlobals());

describe('track-order-page', () => {
  it('needs both the order number and the phone', () => {
    const fetch = mockFetch({});
    render(<TrackOrderPage search="" />);
    fireEvent.click(screen.getByRole('button', { name: 'Track order' }));
    expect(screen.getByText('Enter your order number.')).toBeTruthy();
    expect(screen.getByText('Enter your mobile number.')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows the status, payment and products of the order', async () => {
    const fetch = mockFetch({
      '/api/cart/track-order': {
        body: {
          success: true,
          order_masters: {
            order_status: 'placed',
            payment_method: 'bkash',
            payment_term_status: 'partial',
            order_date: '2026-05-01',
            customer_name: 'Rina',
            order_random: 'R1001',
            total_amount: 120000,
            coupon_discount: 0,
            delivery_fee: 1500,
            grand_total: 121500,
            amount_paid: 0,
          },
          order_details: [
            {
              qty: 2,
              name: 'Akij Chair',
              seo_url: 'akij-chair',
              product_code: 'CHR-1',
              local_purchase_price: 60000,
              total_purchase_price: 120000,
              product: { seo_url: 'akij-chair', title: 'Akij Chair', product_code: 'CHR-1' },
            },
          ],
        },
      },
    });
    render(<TrackOrderPage search="?id=R1001" />);
    fireEvent.change(screen.getByLabelText('Mobile number used for the order'), { target: { value: '+8801712345678' } });
    fireEvent.click(screen.getByRole('button', { name: 'Track order' }));
    await flush();
    expect(Object.fromEntries(calledUrl(fetch).searchParams)).toEqual({ id: 'R1001', phone: '01712345678' });
    expect(screen.getByRole('heading', { name: 'Order R1001' })).toBeTruthy();
    expect(document.querySelector('dl')!.textContent).toBe('StatusPlacedPaymentPartial, bKashOrdered on2026-05-01NameRina');
    expect(screen.getByRole('link', { name: 'Akij Chair' }).getAttribute('href')).toBe('/product/akij-chair');
    // Each line's price, the delivery charge, the total, paid and due (not "1 ×").
    const row = screen.getByRole('link', { name: 'Akij Chair' }).closest('tr')!;
    expect([...row.querySelectorAll('td')].slice(1).map((td) => td.textContent)).toEqual(['৳60,000', '2', '৳1,20,000']);
    expect(document.querySelectorAll('dl')[1].textContent).toBe('Subtotal৳1,20,000Delivery৳1,500Total৳1,21,500Paid৳0Due on delivery৳1,21,500');
  });

  it('looks the order up at once from a link with its number and phone', async () => {
    const fetch = mockFetch({ '/api/cart/track-order': { body: { success: false, order_masters: [], order_details: null } } });
    render(<TrackOrderPage search="?id=R1001&phone=01712345678" />);
    await flush();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(Object.fromEntries(calledUrl(fetch).searchParams)).toEqual({ id: 'R1001', phone: '01712345678' });
    expect(screen.getByRole('alert').textContent).toBe('No order matches that number and phone. Please check both.');
  });

  it('says when no order matches (the original answered [] for the order)', async () => {
    mockFetch({ '/api/cart/track-order': { body: { success: false, order_masters: [], order_details: null } } });
    render(<TrackOrderPage search="?id=1&phone=01712345678" />);
    fireEvent.click(screen.getByRole('button', { name: 'Track order' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('No order matches that number and phone. Please check both.');
  });

  it('shows how long to wait after too many tries', async () => {
    mockFetch({
      '/api/cart/track-order': {
        status: 429,
        headers: { 'Retry-After': '8' },
        body: { success: false, message: 'Too many tries for this order. Please try again in 8 seconds.' },
      },
    });
    render(<TrackOrderPage search="?id=1&phone=01712345678" />);
    fireEvent.click(screen.getByRole('button', { name: 'Track order' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Too many tries for this order. Please try again in 8 seconds.');
  });
});
