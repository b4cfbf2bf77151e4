import { act, render, screen } from '@testing-library/react';
import { calledUrl, mockFetch } from '../../lib/test-utils';
import { OrderPage, placeOf } from './OrderPage';

const flush = () =>
  act(async () => {
    for (let i = 0; i < 6; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });
afterEach(() => vi.unstubAllGlobals());

const order = {
  success: true,
  order_masters: {
    order_random: 'R1001',
    customer_name: 'Rina',
    phone: '01712345678',
    address: 'House 4, Road 2',
    thana: 'Dhanmondi',
    district: 'Dhaka',
    division: 'Dhaka',
    order_date: '2026-11-20 10:15',
    order_status: 'on_the_way',
    payment_method: 'cash_on_delivery',
    payment_term_status: 'partially_paid',
    total_amount: 182000,
    delivery_fee: 1500,
    coupon_discount: 0,
    grand_total: 183500,
    amount_paid: 50000,
    trans_id: '',
    delivery_date: null,
  },
  order_details: [{ name: 'Oslo Bed', seo_url: 'oslo-bed', product_code: 'B-4', qty: 2, local_purchase_price: 91000, total_purchase_price: 182000 }],
};

describe('order-page', () => {
  it('shows the order: status, payment, address, lines, paid and due', async () => {
    const fetch = mockFetch({ '/api/cart/order-details': { body: order } });
    render(<OrderPage search="?order_random=R1001&order_key=k3y" />);
    expect(screen.getByText('Loading your order…')).toBeTruthy();
    await flush();
    expect(Object.fromEntries(calledUrl(fetch).searchParams)).toEqual({ order_random: 'R1001', secret_key: 'k3y' });
    expect(screen.getByRole('heading', { name: 'Order R1001' })).toBeTruthy();
    const facts = document.querySelector('dl')!.textContent;
    expect(facts).toContain('StatusOn the way');
    expect(facts).toContain('PaymentCash on delivery (Partially paid)');
    expect(facts).toContain('Rina · 01712345678House 4, Road 2, Dhanmondi, Dhaka');
    expect(screen.getByRole('link', { name: 'Oslo Bed' }).getAttribute('href')).toBe('/product/oslo-bed');
    expect(document.body.textContent).toContain('Due on delivery৳1,33,500');
    expect(screen.getByRole('link', { name: 'Track this order' }).getAttribute('href')).toBe('/page/track-order?id=R1001&phone=01712345678');
  });

  it('explains a link without its key, and an order that is not found', async () => {
    const fetch = mockFetch({ '/api/cart/order-details': { status: 404, body: { success: false, message: 'Order not found' } } });
    const { unmount } = render(<OrderPage search="?order_random=R1001" />);
    expect(screen.getByRole('alert').textContent).toMatch(/missing the order number/);
    expect(fetch).not.toHaveBeenCalled();
    unmount();
    render(<OrderPage search="?order_random=R1001&order_key=wrong" />);
    await flush();
    expect(screen.getByRole('alert').textContent).toMatch(/could not find this order/);
  });
});

describe('placeOf', () => {
  it('names each place once', () => {
    expect(placeOf(['7 KDA Avenue, Khulna', null, 'Khulna', 'Khulna'])).toBe('7 KDA Avenue, Khulna');
    expect(placeOf(['House 12, Road 5', 'Dhanmondi', 'Dhaka', 'Dhaka'])).toBe('House 12, Road 5, Dhanmondi, Dhaka');
    expect(placeOf(['Flat 3B', '', 'Bagerhat', 'Khulna'])).toBe('Flat 3B, Bagerhat, Khulna');
  });
});
