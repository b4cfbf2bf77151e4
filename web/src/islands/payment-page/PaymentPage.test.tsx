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
  // As the origin answers before a method is stored: no `pm`, the charge and total at the top.
  pm: null,
  delivery_fee: 1500,
  grand_total: 53500,
  cash_on_delivery: true,
  prebooking: false,
  prebooking_min_amount: 0,
};
const gateways = (on: string[], buying_disabled = false) => ({
  buying_disabled,
  ...Object.fromEntries(['cash_on_delivery', 'debitcredit', 'mobile_banking', 'bkash', 'nagad'].map((g) => [g, { active: on.includes(g) }])),
});

beforeEach(() => {
  sessionStorage.clear();
  vi.mocked(navigate).mockClear();
});
afterEach(() => vi.unstubAllGlobals());

describe('payment-page', () => {
  it('asks for a method and the terms first, with the server messages', async () => {
    const fetch = mockFetch({
      '/api/cart/view': { body: { ...view, cash_on_delivery: false } },
      '/api/cart/get-payment-gateway': { body: gateways(['cash_on_delivery', 'debitcredit', 'bkash']) },
    });
    render(<PaymentPage />);
    await flush();
    // Two online methods: neither is chosen for the shopper.
    expect(screen.getByLabelText<HTMLInputElement>('bKash').checked).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    expect(screen.getByText('You must select a payment method')).toBeTruthy();
    expect(screen.getByText('You must agree with terms')).toBeTruthy();
    // The terms to agree to are a tap away.
    expect(screen.getByRole('link', { name: 'terms and conditions' }).getAttribute('href')).toBe('/page/terms-and-conditions');
    expect(fetch.mock.calls.filter((c) => urlOf(c[0]).includes('store-payment-method'))).toHaveLength(0);
    expect(document.querySelector('dl')!.textContent).toBe('Subtotal৳52,000Delivery৳1,500To pay৳53,500');
  });

  it('places a cash-on-delivery order once and goes to the thank-you page', async () => {
    const fetch = mockFetch({
      '/api/cart/view': { body: view },
      '/api/cart/get-payment-gateway': { body: gateways(['cash_on_delivery', 'nagad']) },
      '/api/cart/store-payment-method': { body: { success: true } },
      '/api/cod-place-order': { body: { uri: 'https://shop.example/thank-you?order_random=R1001&order_key=k3y', order_random: 'R1001', order_key: 'k3y' } },
    });
    render(<PaymentPage />);
    await flush();
    expect(screen.queryByLabelText('bKash')).toBeNull();
    expect(screen.getByLabelText('Nagad')).toBeTruthy();
    // Cash on delivery is the default.
    expect(screen.getByLabelText<HTMLInputElement>('Cash on delivery').checked).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('Nagad').checked).toBe(false);
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
      '/api/cart/get-payment-gateway': { body: gateways(['cash_on_delivery', 'nagad']) },
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

  it("sends a bKash payment to bKash's approval page", async () => {
    const fetch = mockFetch({
      '/api/cart/view': { body: view },
      '/api/cart/get-payment-gateway': { body: gateways(['cash_on_delivery', 'bkash']) },
      '/api/cart/store-payment-method': { body: { success: true } },
      '/api/bkash/create': { body: { success: true, bkashURL: 'https://bkash.example/approve/TR0001', order_random: 'R1002' } },
    });
    render(<PaymentPage />);
    await flush();
    fireEvent.click(screen.getByLabelText('bKash'));
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    await flush();
    const create = fetch.mock.calls.find((c) => urlOf(c[0]).includes('/api/bkash/create'))!;
    expect(sentJson<{ token: string }>(create[1]).token).toBeTruthy();
    expect(navigate).toHaveBeenCalledWith('https://bkash.example/approve/TR0001');
  });

  it('takes a part payment for a pre-booking and shows what is due on delivery', async () => {
    const fetch = mockFetch({
      '/api/cart/view': { body: { ...view, cart: { ...view.cart, totalprice: 200000 }, grand_total: 201500, prebooking: true, prebooking_min_amount: 40000 } },
      '/api/cart/get-payment-gateway': { body: gateways(['cash_on_delivery', 'debitcredit', 'nagad']) },
      '/api/cart/store-payment-method': { body: { success: true } },
      '/api/cart/set-paying-amount': { body: { success: true, paying_amount: 50000, prebooking_min_amount: 40000, grand_total: 201500 } },
      '/api/nagad/pay-via-ajax': { body: { url: 'https://nagad.example/pay/2' } },
    });
    render(<PaymentPage />);
    await flush();
    // Not on delivery: a pre-booking is paid in part online.
    expect(screen.queryByLabelText('Cash on delivery')).toBeNull();
    const advance = screen.getByLabelText<HTMLInputElement>('Advance to pay now (taka)');
    expect(advance.value).toBe('40000');
    expect(document.querySelector('dl')!.textContent).toContain('Total৳2,01,500Pay now৳40,000Due on delivery৳1,61,500');
    fireEvent.click(screen.getByLabelText('Nagad'));
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.change(advance, { target: { value: '39999' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    expect(screen.getByText('Pay between ৳40,000 and ৳2,01,500 now.')).toBeTruthy();
    expect(fetch.mock.calls.filter((c) => urlOf(c[0]).includes('set-paying-amount'))).toHaveLength(0);
    fireEvent.change(advance, { target: { value: '50000' } });
    expect(screen.queryByText('Pay between ৳40,000 and ৳2,01,500 now.')).toBeNull();
    expect(advance.getAttribute('aria-invalid')).toBeNull();
    expect(document.querySelector('dl')!.textContent).toContain('Due on delivery৳1,51,500');
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    await flush();
    const paying = fetch.mock.calls.find((c) => urlOf(c[0]).includes('set-paying-amount'))!;
    expect(sentJson(paying[1])).toEqual({ payingAmount: 50000 });
    expect(navigate).toHaveBeenCalledWith('https://nagad.example/pay/2');
  });

  it('says at once, beside the box, that an advance is out of range, in lakh-grouped taka, and sends none', async () => {
    const fetch = mockFetch({
      '/api/cart/view': { body: { ...view, cart: { ...view.cart, totalprice: 35000 }, grand_total: 36500, prebooking: true, prebooking_min_amount: 10950 } },
      '/api/cart/get-payment-gateway': { body: gateways(['bkash']) },
      '/api/cart/store-payment-method': { body: { success: true } },
    });
    render(<PaymentPage />);
    await flush();
    const advance = screen.getByLabelText<HTMLInputElement>('Advance to pay now (taka)');
    const range = 'Pay between ৳10,950 and ৳36,500 now.';
    for (const typed of ['-1', '999999999', '', '10949.5']) {
      fireEvent.change(advance, { target: { value: typed } });
      // No tap needed: the message is beside the box as soon as the amount is typed.
      expect(screen.getByRole('alert').textContent).toBe(range);
      expect(advance.getAttribute('aria-invalid')).toBe('true');
      expect(advance.getAttribute('aria-describedby')).toBe('pay-advance-hint');
      // The summary never reads "Pay now -৳1" or "৳99,99,99,999".
      expect(document.querySelector('dl')!.textContent).toContain('Pay now—Due on delivery—');
    }
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    await flush();
    expect(fetch.mock.calls.filter((c) => /store-payment-method|set-paying-amount|bkash/.test(urlOf(c[0])))).toHaveLength(0);
    expect(document.activeElement).toBe(advance);
    fireEvent.change(advance, { target: { value: '36500' } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(document.querySelector('dl')!.textContent).toContain('Pay now৳36,500Due on delivery৳0');
  });

  it('chooses the only method there is, and leaves out cash on delivery where a product forbids it', async () => {
    mockFetch({ '/api/cart/view': { body: view }, '/api/cart/get-payment-gateway': { body: gateways(['cash_on_delivery']) } });
    const { unmount } = render(<PaymentPage />);
    await flush();
    expect(screen.getByLabelText<HTMLInputElement>('Cash on delivery').checked).toBe(true);
    unmount();
    mockFetch({
      '/api/cart/view': { body: { ...view, cash_on_delivery: false } },
      '/api/cart/get-payment-gateway': { body: gateways(['cash_on_delivery', 'nagad']) },
    });
    render(<PaymentPage />);
    await flush();
    expect(screen.queryByLabelText('Cash on delivery')).toBeNull();
    expect(screen.getByLabelText<HTMLInputElement>('Nagad').checked).toBe(true);
  });

  it('shows only the configured methods, and only cash on delivery without the list', async () => {
    mockFetch({ '/api/cart/view': { body: view }, '/api/cart/get-payment-gateway': { body: gateways(['cash_on_delivery', 'debitcredit']) } });
    const { unmount } = render(<PaymentPage />);
    await flush();
    const shown = screen.getAllByRole<HTMLInputElement>('radio').map((r) => r.value);
    expect(shown).toEqual(['cash_on_delivery', 'debitcredit']);
    expect(screen.getByLabelText<HTMLInputElement>('Cash on delivery').checked).toBe(true);
    unmount();
    // The list could not be had: cash on delivery, which is always on, and nothing else.
    mockFetch({ '/api/cart/view': { body: view }, '/api/cart/get-payment-gateway': { status: 503, body: { success: false, message: 'busy' } } });
    const second = render(<PaymentPage />);
    await flush();
    expect(screen.getAllByRole<HTMLInputElement>('radio').map((r) => r.value)).toEqual(['cash_on_delivery']);
    expect(screen.getByLabelText<HTMLInputElement>('Cash on delivery').checked).toBe(true);
    second.unmount();
    // Nothing configured for a cart that cannot be paid on delivery: nothing to choose, nothing to press.
    mockFetch({ '/api/cart/view': { body: { ...view, cash_on_delivery: false } }, '/api/cart/get-payment-gateway': { body: gateways(['cash_on_delivery']) } });
    render(<PaymentPage />);
    await flush();
    expect(screen.queryAllByRole('radio')).toHaveLength(0);
    expect(screen.getByRole('status').textContent).toContain('No way to pay is available');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Place order' }).disabled).toBe(true);
  });

  it('offers nothing while buying is switched off', async () => {
    const fetch = mockFetch({
      '/api/cart/view': { body: view },
      '/api/cart/get-payment-gateway': { body: gateways(['cash_on_delivery', 'debitcredit', 'bkash', 'nagad'], true) },
    });
    render(<PaymentPage />);
    await flush();
    expect(screen.getByRole('status').textContent).toBe('Buying is switched off for a short while. Please try again later.');
    expect(screen.queryAllByRole('radio')).toHaveLength(0);
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Place order' });
    expect(button.disabled).toBe(true);
    fireEvent.click(button);
    await flush();
    expect(fetch.mock.calls.filter((c) => urlOf(c[0]).includes('store-payment-method'))).toHaveLength(0);
  });

  it('sends a shopper with an empty cart back to the cart', async () => {
    mockFetch({ '/api/cart/view': { body: { ...view, cart: { items: [], psets: [], totalprice: 0 } } } });
    render(<PaymentPage />);
    await flush();
    expect(navigate).toHaveBeenCalledWith('/cart');
  });
});
