import { act, fireEvent, render, screen } from '@testing-library/react';
import { authToken } from '../../lib/api';
import { navigate } from '../../lib/navigate';
import { callsTo, mockFetch, sentJson } from '../../lib/test-utils';
import { afterLogin, LoginPage } from './LoginPage';

vi.mock('../../lib/navigate', () => ({ navigate: vi.fn() }));

const flush = () =>
  act(async () => {
    for (let i = 0; i < 6; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });

beforeEach(() => {
  localStorage.clear();
  vi.mocked(navigate).mockClear();
});
afterEach(() => vi.unstubAllGlobals());

describe('login-page', () => {
  it('explains what is missing before calling the API', () => {
    const fetch = mockFetch({});
    render(<LoginPage />);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByLabelText('Email or mobile number').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Enter your email address or mobile number, like name@example.com or 01712345678.')).toBeTruthy();
    expect(screen.getByText('Enter your password.')).toBeTruthy();
    expect(callsTo(fetch, '/api/auth/login')).toHaveLength(0);
  });

  it('signs in, keeps the token and goes home', async () => {
    const fetch = mockFetch({ '/api/auth/login': { body: { token: '3|abc', user: { name: 'Rina' } } } });
    const changed = vi.fn();
    window.addEventListener('cart:changed', changed);
    render(<LoginPage />);
    fireEvent.change(screen.getByLabelText('Email or mobile number'), { target: { value: ' rina@example.com ' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await flush();
    expect(sentJson(callsTo(fetch, '/api/auth/login')[0][1])).toEqual({ email: 'rina@example.com', password: 'secret12', device_name: 'web_browser' });
    expect(authToken()).toBe('3|abc');
    expect(changed).toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith('/');
    window.removeEventListener('cart:changed', changed);
  });

  it('signs in with a mobile number, sent in the form the shop stores', async () => {
    const fetch = mockFetch({ '/api/auth/login': { body: { token: '4|m0b', user: { name: 'Karim' } } } });
    render(<LoginPage />);
    fireEvent.change(screen.getByLabelText('Email or mobile number'), { target: { value: '+880 1712-345678' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await flush();
    expect(sentJson(callsTo(fetch, '/api/auth/login')[0][1])).toEqual({ email: '01712345678', password: 'secret12', device_name: 'web_browser' });
    expect(authToken()).toBe('4|m0b');
  });

  it('shows the API refusal', async () => {
    mockFetch({ '/api/auth/login': { status: 401, body: { success: false, message: 'The email or password is not right.' } } });
    render(<LoginPage />);
    fireEvent.change(screen.getByLabelText('Email or mobile number'), { target: { value: 'rina@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('The email or password is not right.');
    expect(authToken()).toBeNull();
  });

  it('goes back only to a page of this site', () => {
    expect(afterLogin('?redirect=/checkout')).toBe('/checkout');
    expect(afterLogin('?redirect=//evil.example')).toBe('/');
    expect(afterLogin('?redirect=https://evil.example')).toBe('/');
    expect(afterLogin('')).toBe('/');
  });

  it('comes back to the product a guest wanted to keep, and nowhere off the site', () => {
    const origin = 'https://shop.example';
    expect(afterLogin('?redirect=%2Fproduct%2Foslo-bed%3Fcolour%3Dwalnut', origin)).toBe('/product/oslo-bed?colour=walnut');
    expect(afterLogin('?next=/product/oslo-bed#reviews', origin)).toBe('/product/oslo-bed#reviews');
    for (const evil of [
      '//evil.example',
      '/\\evil.example',
      '/%09/evil.example',
      '%2F%2Fevil.example',
      '/\t/evil.example',
      ' /evil',
      'https://evil.example/product/x',
      'javascript:alert(1)',
      'product/oslo-bed',
      '/user/login?redirect=/x',
      '',
    ]) {
      const to = afterLogin(`?redirect=${encodeURIComponent(evil)}`, origin);
      // Wherever it goes, it stays on this site (a percent-encoded tab is a harmless same-site path).
      expect(to, evil).toMatch(/^\/(?![/\\])/);
      expect(new URL(to, origin).origin, evil).toBe(origin);
      expect(to, evil).not.toMatch(/^\/user\/login|alert|^\/product\/oslo-bed$/);
    }
    for (const evil of ['//evil.example', '/\\evil.example', '/\t/evil.example', ' /evil', 'https://evil.example/x', 'javascript:alert(1)', '/user/login'])
      expect(afterLogin(`?redirect=${encodeURIComponent(evil)}`, origin), evil).toBe('/');
    expect(afterLogin('?redirect=%2F%5Cevil.example', origin)).toBe('/');
    expect(afterLogin('?redirect=https%3A%2F%2Fevil.example', origin)).toBe('/');
  });

  it('shows how long to wait after too many failed sign-ins', async () => {
    mockFetch({
      '/api/auth/login': {
        status: 429,
        headers: { 'Retry-After': '900' },
        body: { success: false, message: 'Too many failed sign-ins. Please try again in 15 minutes.' },
      },
    });
    render(<LoginPage />);
    fireEvent.change(screen.getByLabelText('Email or mobile number'), { target: { value: 'rina@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'guess-1234' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Too many failed sign-ins. Please try again in 15 minutes.');
    expect(authToken()).toBeNull();
  });
});
