import { act, render, screen } from '@testing-library/react';
import { calledUrl, mockFetch } from '../../lib/test-utils';
import { ThankYouPage } from './ThankYouPage';

const flush = () =>
  act(async () => {
    for (let i = 0; i < 6; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });

const order = {
  order_masters: {
    customer_name: 'Rina',
    phone: '01712345678',
    payment_method: 'cash_on_delivery',
    payment_term_status: 'COD',
    total_amount: 52000,
    delivery_fee: 1500,
    grand_total: 53500,
  },
  order_details: [{ name: 'Oslo Bed', seo_url: 'oslo-bed', product_code: 'B-4', qty: 1, local_purchase_price: 52000, total_purchase_price: 52000 }],
};

beforeEach(() => {
  sessionStorage.clear();
  window.dataLayer = undefined;
});
afterEach(() => vi.unstubAllGlobals());

describe('thank-you-page', () => {
  it('shows the order and sends purchase once, even after a reload', async () => {
    const fetch = mockFetch({ '/api/cart/order-details': { body: order } });
    const { unmount } = render(<ThankYouPage search="?order_random=R1001&order_key=k3y" />);
    await flush();
    expect(Object.fromEntries(calledUrl(fetch).searchParams)).toEqual({ order_random: 'R1001', secret_key: 'k3y' });
    expect(screen.getByText(/Your order/).textContent).toBe('Thank you, Rina! Your order R1001 is placed.');
    expect(screen.getByText('Cash on delivery (COD)')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Track this order' }).getAttribute('href')).toBe('/page/track-order?id=R1001&phone=01712345678');
    expect(window.dataLayer!.filter((e) => e.event === 'purchase')).toEqual([
      {
        event: 'purchase',
        ecommerce: {
          currency: 'BDT',
          affiliation: 'Regal',
          shipping_tier: 'Ground',
          transaction_id: 'R1001',
          value: 53500,
          shipping: 1500,
          items: [{ affiliation: 'Regal', item_id: 'B-4', item_name: 'Oslo Bed', price: 52000, quantity: 1 }],
        },
      },
    ]);
    unmount();
    render(<ThankYouPage search="?order_random=R1001&order_key=k3y" />);
    await flush();
    expect(window.dataLayer!.filter((e) => e.event === 'purchase')).toHaveLength(1);
  });

  it('explains a link without its order or one that finds nothing', async () => {
    const { unmount } = render(<ThankYouPage search="" />);
    expect(screen.getByRole('alert').textContent).toMatch(/missing the order number/);
    unmount();
    mockFetch({ '/api/cart/order-details': { body: { order_details: [], order_masters: null } } });
    render(<ThankYouPage search="?order_random=R1&order_key=bad" />);
    await flush();
    expect(screen.getByRole('alert').textContent).toMatch(/could not find this order/);
  });
});
