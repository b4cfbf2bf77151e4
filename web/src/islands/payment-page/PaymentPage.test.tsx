import { act, fireEvent, render, screen } from '@testing-library/react';
import { navigate } from '../../lib/navigate';
import { mockFetch, sentJson, urlOf } from '../../lib/test-utils';
import { PaymentPage } from './PaymentPage';

vi.mock('../../lib/navigate', () => ({ navigate: vi.fn() }));

const flush = () =>
  act(async () => {
    for (let i = 0; i < 8; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });

const view = {
  cart: { items: [{ qty: 1, purchaseprice: 52000, info: { id: 4, title: 'Oslo Bed' } }], totalprice: 52000 },
  pm: { deliveryfee: 1500, grand_total: null },
};

beforeEach(() => {
  sessionStorage.clear();
  vi.mocked(navigate).mockClear();
});
afterEach(() => vi.unstubAllGlobals());

describe('payment-page', () => {
  it('asks for a method and the terms first, with the server messages', async () => {
    const fetch = mockFetch({ '/api/cart/view': { body: view } });
    render(<PaymentPage />);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    expect(screen.getByText('You must select a payment method')).toBeTruthy();
    expect(screen.getByText('You must agree with terms')).toBeTruthy();
    expect(fetch.mock.calls.filter((c) => urlOf(c[0]).includes('store-payment-method'))).toHaveLength(0);
    expect(document.querySelector('dl')!.textContent).toBe('Subtotal৳52,000Delivery৳1,500To pay৳53,500');
  });

  it('places a cash-on-delivery order once and goes to the thank-you page', async () => {
    const fetch = mockFetch({
      '/api/cart/view': { body: view },
      '/api/cart/get-payment-gateway': {
        body: {
          cash_on_delivery: { active: true },
          debitcredit: { active: false },
          mobile_banking: { active: false },
          bkash: { active: false },
          nagad: { active: true },
        },
      },
      '/api/cart/store-payment-method': { body: { success: true } },
      '/api/cod-place-order': { body: { uri: 'https://shop.example/thank-you?order_random=R1001&order_key=k3y', order_random: 'R1001', order_key: 'k3y' } },
    });
    render(<PaymentPage />);
    await flush();
    expect(screen.queryByLabelText('bKash')).toBeNull();
    expect(screen.getByLabelText('Nagad')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Cash on delivery'));
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Placing your order…' }).disabled).toBe(true);
    await flush();
    const store = fetch.mock.calls.find((c) => urlOf(c[0]).includes('store-payment-method'))!;
    expect(sentJson(store[1])).toMatchObject({ terms_check: true, payment_method: 'cash_on_delivery' });
    // Both calls may be replayed by the edge on another origin: they carry Idempotency-Key.
    expect((store[1]!.headers as Record<string, string>)['Idempotency-Key']).toMatch(/^\d+-/);
    const place = fetch.mock.calls.find((c) => urlOf(c[0]).includes('cod-place-order'))!;
    const key = sentJson<{ idempotency_key: string }>(place[1]).idempotency_key;
    expect(key).toMatch(/^\d+-/);
    expect((place[1]!.headers as Record<string, string>)['Idempotency-Key']).toBe(key);
    expect(navigate).toHaveBeenCalledWith('/thank-you?order_random=R1001&order_key=k3y');
  });

  it('shows a refused order and lets the shopper try again', async () => {
    mockFetch({
      '/api/cart/view': { body: view },
      '/api/cart/store-payment-method': { body: { success: true } },
      '/api/cod-place-order': { status: 409, body: { success: false, message: 'Oslo Bed is out of stock' } },
    });
    render(<PaymentPage />);
    await flush();
    fireEvent.click(screen.getByLabelText('Cash on delivery'));
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Oslo Bed is out of stock');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Place order' }).disabled).toBe(false);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('hands an online payment over to its gateway', async () => {
    mockFetch({
      '/api/cart/view': { body: view },
      '/api/cart/store-payment-method': { body: { success: true } },
      '/api/nagad/pay-via-ajax': { body: { url: 'https://nagad.example/pay/1' } },
    });
    render(<PaymentPage />);
    await flush();
    fireEvent.click(screen.getByLabelText('Nagad'));
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    await flush();
    expect(navigate).toHaveBeenCalledWith('https://nagad.example/pay/1');
  });
});
