import { act, fireEvent, render, screen } from '@testing-library/react';
import { setAuthToken } from '../../lib/api';
import { navigate } from '../../lib/navigate';
import { mockFetch, sentJson, urlOf } from '../../lib/test-utils';
import { checkAddress, CheckoutPage } from './CheckoutPage';

vi.mock('../../lib/navigate', () => ({ navigate: vi.fn() }));

const flush = () =>
  act(async () => {
    for (let i = 0; i < 6; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });

const cart = { items: [{ qty: 1, purchaseprice: 52000, info: { id: 4, code: 'B-4', title: 'Oslo Bed' } }], psets: [], totalprice: 52000 };
const api = (extra = {}) =>
  mockFetch({
    '/api/cart/view': { body: { success: true, cart, address: {}, district: null } },
    '/api/common/districts': {
      body: {
        districts: [
          { division: 'Dhaka', district: 'Dhaka' },
          { division: 'Chattogram', district: "Cox's Bazar" },
        ],
      },
    },
    '/api/cart/get-delivery-charge': { body: { deliverycharge: 1500 } },
    ...extra,
  });

function fill(values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

beforeEach(() => {
  localStorage.clear();
  vi.mocked(navigate).mockClear();
});
afterEach(() => vi.unstubAllGlobals());

describe('checkout-page', () => {
  it('checks each field with the server rules', () => {
    expect(checkAddress({ name: 'Al', mobile: '0171', emergency_mobile: '01712345678', email: 'x', district: '', address: ' ' })).toEqual({
      name: 'Enter at least 3 letters.',
      mobile: 'Enter an 11-digit mobile number starting with 01, like 01712345678.',
      email: 'Enter an email address like name@example.com.',
      district: 'Choose the district for delivery.',
      address: 'Enter the delivery address: house, road, area.',
    });
    expect(
      checkAddress({ name: 'Rina', mobile: '01712345678', emergency_mobile: '+8801712345678', email: 'r@x.bd', district: 'Dhaka', address: 'Road 1' }),
    ).toEqual({
      emergency_mobile: 'Use a different number from the mobile number above.',
    });
  });

  it('takes no email for the receipt, but one to make an account with', () => {
    const noEmail = { name: 'Rina', mobile: '01712345678', emergency_mobile: '01812345678', email: ' ', district: 'Dhaka', address: 'Road 1' };
    expect(checkAddress(noEmail)).toEqual({});
    expect(checkAddress(noEmail, true)).toEqual({ email: 'Enter your email address.' });
    expect(checkAddress({ ...noEmail, email: 'rina@' })).toEqual({ email: 'Enter an email address like name@example.com.' });
  });

  it('gives the emergency number its own messages, never the mobile field’s', () => {
    const base = { name: 'Rina', mobile: '01712345678', email: 'r@x.bd', district: 'Dhaka', address: 'Road 1' };
    expect(checkAddress({ ...base, emergency_mobile: '' })).toEqual({
      emergency_mobile: 'Enter an emergency number: another number we can call if we cannot reach you.',
    });
    expect(checkAddress({ ...base, emergency_mobile: '0181' })).toEqual({
      emergency_mobile: 'Enter the emergency number as 11 digits starting with 01, like 01812345678.',
    });
    expect(checkAddress({ ...base, emergency_mobile: '+880 1812-345678' })).toEqual({});
    // Both wrong: each field says what is wrong with it.
    const both = checkAddress({ ...base, mobile: '', emergency_mobile: '12' });
    expect(both.mobile).toBe('Enter your mobile number.');
    expect(both.emergency_mobile).toMatch(/^Enter the emergency number/);
  });

  it('saves the address with the original names, shows the delivery charge, and goes to payment', async () => {
    const fetch = api({ '/api/cart/checkout-delivery-address': { body: { success: true, message: 'Your contact and address has been saved' } } });
    render(<CheckoutPage />);
    await flush();
    fill({
      'Full name': 'Rina Akter',
      'Mobile number': '01712345678',
      'Emergency mobile number': '01812345678',
      'Email for the receipt (optional)': 'rina@example.com',
      Address: 'House 5, Road 2, Kolatoli',
    });
    fireEvent.change(screen.getByLabelText('District'), { target: { value: "Cox's Bazar" } });
    await flush();
    expect(screen.getByRole('complementary', { name: 'Order summary' }).textContent).toContain('Delivery৳1,500Total৳53,500');
    fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    await flush();
    const call = fetch.mock.calls.find((c) => urlOf(c[0]).includes('checkout-delivery-address'))!;
    const body = sentJson<{ self_token: string }>(call[1]);
    expect(body).toMatchObject({
      name: 'Rina Akter',
      mobile: '01712345678',
      emergency_mobile: '01812345678',
      email: 'rina@example.com',
      district: "Cox's Bazar",
      division: 'Chattogram',
      address: 'House 5, Road 2, Kolatoli',
      username: '',
      password: '',
      create: false,
    });
    expect(body.self_token).toMatch(/^\d{13}/);
    expect(navigate).toHaveBeenCalledWith('/payment');
  });

  it('puts the API field messages beside their fields', async () => {
    api({
      '/api/cart/checkout-delivery-address': {
        status: 422,
        body: { success: false, message: 'The mobile must be 11 characters.', errors: { mobile: ['The mobile must be 11 characters.'] } },
      },
    });
    render(<CheckoutPage />);
    await flush();
    fill({
      'Full name': 'Rina Akter',
      'Mobile number': '01712345678',
      'Emergency mobile number': '01812345678',
      'Email for the receipt (optional)': 'rina@example.com',
      Address: 'Road 2',
    });
    fireEvent.change(screen.getByLabelText('District'), { target: { value: 'Dhaka' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('The mobile must be 11 characters.');
    expect(screen.getByLabelText('Mobile number').getAttribute('aria-invalid')).toBe('true');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('comes back filled with the address saved for this cart (back from /payment)', async () => {
    const saved = {
      name: 'Rina Akter',
      mobile: '01712345678',
      emergency_mobile: '01812345678',
      email: 'rina@example.com',
      division: 'Chattogram',
      district: "Cox's Bazar",
      thana: null,
      address: 'House 5, Road 2, Kolatoli',
    };
    api({ '/api/cart/view': { body: { success: true, cart, address: saved, district: "Cox's Bazar" } } });
    render(<CheckoutPage />);
    await flush();
    const value = (label: string) => screen.getByLabelText<HTMLInputElement>(label).value;
    expect(value('Full name')).toBe('Rina Akter');
    expect(value('Mobile number')).toBe('01712345678');
    expect(value('Emergency mobile number')).toBe('01812345678');
    expect(value('Email for the receipt (optional)')).toBe('rina@example.com');
    expect(value('District')).toBe("Cox's Bazar");
    expect(value('Address')).toBe('House 5, Road 2, Kolatoli');
    expect(screen.getByRole('complementary', { name: 'Order summary' }).textContent).toContain('Delivery৳1,500');
  });

  it('keeps what the shopper typed and the district chosen on this device over the saved address', async () => {
    localStorage.setItem('checkout-district', 'Dhaka');
    let answer: (v: unknown) => void = () => {};
    api({
      '/api/cart/view': () =>
        new Promise((r) => {
          answer = r;
        }),
    });
    render(<CheckoutPage />);
    await flush();
    fill({ 'Full name': 'Karim Hossain' });
    answer({ body: { success: true, cart, address: { name: 'Rina Akter', mobile: '01712345678', district: "Cox's Bazar" }, district: "Cox's Bazar" } });
    await flush();
    expect(screen.getByLabelText<HTMLInputElement>('Full name').value).toBe('Karim Hossain');
    expect(screen.getByLabelText<HTMLInputElement>('Mobile number').value).toBe('01712345678');
    expect(screen.getByLabelText<HTMLSelectElement>('District').value).toBe('Dhaka');
  });

  it('fills a signed-in shopper’s emergency number from the profile', async () => {
    setAuthToken('5|tok');
    api({
      '/api/auth/user': { body: { success: true, user: { id: 5, name: 'Rina Akter', phone: '01712345678', emergency_phone: '01812345678' } } },
      '/api/user/get-default-address': { body: { success: true, address: [] } },
    });
    render(<CheckoutPage />);
    await flush();
    expect(screen.getByLabelText<HTMLInputElement>('Mobile number').value).toBe('01712345678');
    expect(screen.getByLabelText<HTMLInputElement>('Emergency mobile number').value).toBe('01812345678');
    setAuthToken(null);
  });
});
