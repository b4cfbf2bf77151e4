import { act, fireEvent, render, screen } from '@testing-library/react';
import { authToken, setAuthToken } from '../../lib/api';
import { navigate } from '../../lib/navigate';
import { callsTo, mockFetch, sentJson, urlOf } from '../../lib/test-utils';
import { AccountPage, viewOf } from './AccountPage';

vi.mock('../../lib/navigate', () => ({ navigate: vi.fn(), loginUrl: () => '/user/login?redirect=%2Fuser%2Forders' }));

const flush = () =>
  act(async () => {
    for (let i = 0; i < 6; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });

beforeEach(() => {
  localStorage.clear();
  setAuthToken('5|tok');
  vi.mocked(navigate).mockClear();
});
afterEach(() => vi.unstubAllGlobals());

describe('account-page', () => {
  it('picks the view from the path and asks a visitor without a session to sign in', () => {
    expect(viewOf('/user')).toBe('profile');
    expect(viewOf('/user/orders/')).toBe('orders');
    expect(viewOf('/user/unknown')).toBe('profile');
    setAuthToken(null);
    render(<AccountPage path="/user/orders" />);
    expect(screen.getByRole('link', { name: 'sign in' }).getAttribute('href')).toBe('/user/login?redirect=%2Fuser%2Forders');
  });

  it('shows and saves the profile, and subscribes to the newsletter', async () => {
    const fetch = mockFetch({
      '/api/auth/user': {
        body: { user: { name: 'Rina', email: 'rina@example.com', phone: '01712345678', gender: 'female', district: 'Dhaka', postcode: '1212' } },
      },
      '/api/user/user-update': { body: { success: true, message: 'Infomation Updated!' } },
      '/api/user/subscribe': { body: { success: true } },
    });
    render(<AccountPage path="/user/profile" search="" />);
    await flush();
    expect(screen.queryByText(/Welcome!/)).toBeNull();
    expect(screen.getByRole('link', { name: 'My Profile' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByLabelText<HTMLInputElement>('Full name').value).toBe('Rina');
    fireEvent.change(screen.getByLabelText('Full name'), { target: { value: 'Rina Akter' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save my details' }));
    await flush();
    expect(sentJson(callsTo(fetch, '/api/user/user-update')[0][1])).toEqual({
      name: 'Rina Akter',
      email: 'rina@example.com',
      phone: '01712345678',
      emergency_phone: '',
      birthday: '',
      gender: 'female',
      // Not on the form, and user-update clears what is left out: sent as saved.
      district: 'Dhaka',
      postcode: '1212',
    });
    expect(screen.getByText('Infomation Updated!')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Subscribe/ }));
    await flush();
    expect(sentJson(callsTo(fetch, '/api/user/subscribe')[0][1])).toEqual({ email: 'rina@example.com' });
    expect(screen.getByText('You are subscribed to our newsletter.')).toBeTruthy();
  });

  it('keeps the emergency number checkout asks for: shown, checked, and saved (never cleared by a save)', async () => {
    const fetch = mockFetch({
      '/api/auth/user': { body: { user: { name: 'Rina', email: 'rina@example.com', phone: '01712345678', emergency_phone: '01812345678' } } },
      '/api/user/user-update': { body: { success: true, message: 'Infomation Updated!' } },
    });
    render(<AccountPage path="/user/profile" search="" />);
    await flush();
    const emergency = screen.getByLabelText<HTMLInputElement>('Emergency mobile number');
    expect(emergency.value).toBe('01812345678');
    fireEvent.change(emergency, { target: { value: '01712345678' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save my details' }));
    await flush();
    expect(screen.getByText('Use a different number from the mobile number above.')).toBeTruthy();
    expect(callsTo(fetch, '/api/user/user-update')).toHaveLength(0);
    fireEvent.change(emergency, { target: { value: '+880 1912-345678' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save my details' }));
    await flush();
    expect(sentJson(callsTo(fetch, '/api/user/user-update')[0][1])).toMatchObject({ phone: '01712345678', emergency_phone: '01912345678' });
  });

  it('welcomes a shopper who just signed up', async () => {
    mockFetch({ '/api/auth/user': { body: { user: { name: 'Rina', email: 'rina@example.com' } } } });
    render(<AccountPage path="/user/profile" search="?welcome" />);
    await flush();
    expect(screen.getByText('Welcome! Your account is ready and you are signed in.').getAttribute('role')).toBe('status');
  });

  it('lists orders with their products and a link to the details', async () => {
    mockFetch({
      '/api/user/orders': {
        body: {
          orders: [
            {
              id: 1,
              order_random: 'R1001',
              order_key: 'k',
              order_date: '2026-05-01',
              od_status: 'on_the_way',
              grand_total: 53500,
              payment_method: 'cash_on_delivery',
              payment_term_status: 'COD',
              products: [{ qty: 1, local_purchase_price: 52000, product: { title: 'Oslo Bed', seo_url: 'oslo-bed' } }],
            },
          ],
        },
      },
    });
    render(<AccountPage path="/user/orders" />);
    await flush();
    expect(screen.getByText('Order R1001')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Oslo Bed' }).getAttribute('href')).toBe('/product/oslo-bed');
    expect(screen.getByRole('link', { name: 'Order details' }).getAttribute('href')).toBe('/order?order_random=R1001&order_key=k');
    // The method and the status in words, not their codes.
    expect(screen.getByText(/Payment: Cash on delivery/)).toBeTruthy();
    expect(screen.getByText('On the way')).toBeTruthy();
  });

  it('lists reviews keyed by id', async () => {
    mockFetch({
      '/api/user/reviews': {
        body: {
          reviews: {
            '7': { product: { id: 12, title: 'Rio Sofa', seo_url: 'rio-sofa' }, rating: 4, comment: 'Comfortable', is_active: 0, created_at: '01 May 2026' },
          },
        },
      },
    });
    render(<AccountPage path="/user/reviews" />);
    await flush();
    expect(screen.getByLabelText('4 of 5 stars').textContent).toBe('★★★★');
    expect(screen.getByText(/01 May 2026 · waiting for approval/)).toBeTruthy();
    // Each review links to its edit form.
    expect(screen.getByRole('link', { name: 'Edit review' }).getAttribute('href')).toBe('/product/review/12');
  });

  it('adds an address with the original query names and makes one the delivery address', async () => {
    let list: unknown = [];
    const fetch = mockFetch({
      '/api/user/address-list': () => ({ body: { addresses: list } }),
      '/api/user/address-store': () => {
        list = { '3': { id: 3, name: 'Rina', address: 'Road 2', region: 'Sylhet', district: 'Sylhet', phone: '01712345678' } };
        return { body: { success: true } };
      },
      '/api/user/set-default-address': { body: { success: true } },
      '/api/common/districts': {
        body: {
          districts: [
            { division: 'Sylhet', district: 'Sylhet' },
            { division: 'Dhaka', district: 'Dhaka' },
          ],
        },
      },
    });
    render(<AccountPage path="/user/address" />);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Add an address' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save the address' }));
    expect(screen.getByText('Enter the address.')).toBeTruthy();
    expect(screen.getByText('Choose the district.')).toBeTruthy();
    // The district is chosen from the 64, and its division follows.
    const district = screen.getByLabelText<HTMLSelectElement>('District');
    expect(Array.from(district.options).map((o) => o.value)).toEqual(['', 'Dhaka', 'Sylhet']);
    for (const [label, value] of Object.entries({ Name: 'Rina', 'Mobile number': '01712345678', Address: 'Road 2', District: 'Sylhet' })) {
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
    }
    expect(screen.getByText('Sylhet division')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save the address' }));
    await flush();
    expect(Object.fromEntries(new URL(urlOf(callsTo(fetch, '/api/user/address-store')[0][0]), 'http://x').searchParams)).toEqual({
      name: 'Rina',
      address: 'Road 2',
      region: 'Sylhet',
      district: 'Sylhet',
      phone: '01712345678',
    });
    expect(screen.getByText('The address is saved.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Use for delivery' }));
    await flush();
    expect(Object.fromEntries(new URL(urlOf(callsTo(fetch, '/api/user/set-default-address')[0][0]), 'http://x').searchParams)).toEqual({
      type: 'shipping',
      id: '3',
    });
  });

  it('changes the password and shows a wrong current one', async () => {
    mockFetch({ '/api/user/change-password': { status: 422, body: { success: false, message: 'Password not match!' } } });
    render(<AccountPage path="/user/change-password" />);
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'old' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'newpass1' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'newpass1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Password not match!');
  });

  it('signs out even when the server cannot be reached', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('offline'))),
    );
    render(<AccountPage path="/user/reviews" />);
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await flush();
    expect(authToken()).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('asks for the current password when the email or mobile changes, and shows a wrong one', async () => {
    let calls = 0;
    const fetch = mockFetch({
      '/api/auth/user': { body: { user: { name: 'Rina', email: 'rina@example.com', phone: '01712345678' } } },
      '/api/user/user-update': () =>
        ++calls === 1
          ? { status: 400, body: { success: false, message: 'Invalid', errors: { old_password: ['Your current password is not right.'] } } }
          : { body: { success: true, message: 'Your profile has been updated.' } },
    });
    render(<AccountPage path="/user/profile" />);
    await flush();
    expect(screen.queryByLabelText('Current password')).toBeNull();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'rina.new@example.com' } });
    const current = screen.getByLabelText('Current password');
    // Not sent without it.
    fireEvent.click(screen.getByRole('button', { name: 'Save my details' }));
    await flush();
    expect(callsTo(fetch, '/api/user/user-update')).toHaveLength(0);
    expect(screen.getByText('Enter your current password to change your email or mobile number.')).toBeTruthy();
    fireEvent.change(current, { target: { value: 'wrong-one' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save my details' }));
    await flush();
    expect(sentJson<{ old_password: string; email: string }>(callsTo(fetch, '/api/user/user-update')[0][1])).toMatchObject({
      email: 'rina.new@example.com',
      old_password: 'wrong-one',
    });
    expect(screen.getByText('Your current password is not right.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'rina-password-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save my details' }));
    await flush();
    expect(screen.getByText('Your profile has been updated.')).toBeTruthy();
  });
});
