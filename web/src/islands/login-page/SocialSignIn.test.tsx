import { act, fireEvent, render, screen } from '@testing-library/react';
import { authToken } from '../../lib/api';
import { navigate } from '../../lib/navigate';
import { callsTo, mockFetch, sentJson } from '../../lib/test-utils';
import { LoginPage } from './LoginPage';
import { GENERIC_SOCIAL_ERROR, isSocialFragment, readSocialFragment, socialErrorText } from './SocialSignIn';

vi.mock('../../lib/navigate', () => ({ navigate: vi.fn() }));

const flush = () =>
  act(async () => {
    for (let i = 0; i < 6; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });

/** Arrives at /user/login as the origin's callback sends the browser there. */
const arrive = (address: string) => history.replaceState(null, '', address);

/** A code as the origin's callback writes it: 64 hexadecimal digits. */
const CODE = '0123456789abcdef'.repeat(4);

const BOTH = { '/api/auth/social': { body: { success: true, providers: ['google', 'facebook'] } } };

beforeEach(() => {
  localStorage.clear();
  vi.mocked(navigate).mockClear();
  arrive('/user/login');
});
afterEach(() => {
  vi.unstubAllGlobals();
  arrive('/');
});

describe('login-page social sign-in', () => {
  it('offers a link to each provider the shop lists, and only those', async () => {
    mockFetch({ '/api/auth/social': { body: { success: true, providers: ['facebook'] } } });
    render(<LoginPage />);
    await flush();
    const facebook = screen.getByRole('link', { name: 'Continue with Facebook' });
    expect(facebook.getAttribute('href')).toBe('/api/auth/social/facebook/redirect');
    expect(screen.queryByRole('link', { name: 'Continue with Google' })).toBeNull();
  });

  it('offers both in a fixed order, and none when the list is empty or cannot be read', async () => {
    mockFetch(BOTH);
    const { unmount } = render(<LoginPage />);
    await flush();
    expect(screen.getAllByRole('link', { name: /^Continue with/ }).map((a) => a.getAttribute('href'))).toEqual([
      '/api/auth/social/google/redirect',
      '/api/auth/social/facebook/redirect',
    ]);
    unmount();

    mockFetch({ '/api/auth/social': { body: { success: true, providers: [] } } });
    const second = render(<LoginPage />);
    await flush();
    expect(screen.queryByRole('link', { name: /^Continue with/ })).toBeNull();
    second.unmount();

    mockFetch({ '/api/auth/social': { status: 503, body: { success: false, message: 'down' } } });
    render(<LoginPage />);
    await flush();
    expect(screen.queryByRole('link', { name: /^Continue with/ })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('#social_code is redeemed with the cookie after the fragment is cleared, and signs in as a password sign-in does', async () => {
    let hashWhenRedeemed: string | null = null;
    const fetch = mockFetch({
      ...BOTH,
      '/api/auth/social/redeem': () => {
        hashWhenRedeemed = location.hash;
        return { body: { success: true, token: '7|s0c1al', token_type: 'Bearer', user: { name: 'Rina' } } };
      },
    });
    const changed = vi.fn();
    window.addEventListener('cart:changed', changed);
    arrive(`/user/login?redirect=/checkout#social_code=${CODE}`);
    render(<LoginPage />);
    expect(screen.getByRole('status').textContent).toBe('Signing you in…');
    await flush();
    const [call] = callsTo(fetch, '/api/auth/social/redeem');
    expect(call[1]?.method).toBe('POST');
    expect(call[1]?.credentials).toBe('same-origin');
    expect(sentJson(call[1])).toEqual({ code: CODE });
    expect(hashWhenRedeemed).toBe('');
    expect(authToken()).toBe('7|s0c1al');
    expect(changed).toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith('/checkout');
    expect(location.hash).toBe('');
    expect(location.pathname).toBe('/user/login');
    window.removeEventListener('cart:changed', changed);
  });

  it('a refused #social_code says why above the sign-in form and signs nobody in', async () => {
    const message = 'This sign-in expired, was already used or was started in another browser. Please sign in again.';
    mockFetch({ ...BOTH, '/api/auth/social/redeem': { status: 400, body: { success: false, message, errors: { code: [message] } } } });
    arrive(`/user/login#social_code=${CODE}`);
    render(<LoginPage />);
    await flush();
    expect(screen.getByRole('alert').textContent).toBe(message);
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(authToken()).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
    expect(location.hash).toBe('');
  });

  it('a #social_code the network loses says so, and the sign-in form stays', async () => {
    mockFetch({
      ...BOTH,
      '/api/auth/social/redeem': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    arrive(`/user/login#social_code=${CODE}`);
    render(<LoginPage />);
    await flush();
    expect(screen.getByRole('alert').textContent).not.toBe('');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(authToken()).toBeNull();
  });

  it('takes no token or ticket from the address: #social_token and #social_link sign nobody in (login CSRF)', async () => {
    for (const hash of ['#social_token=7%7Cattacker', '#social_link=T1ck3t&provider=google', '#social_token=7%7Ca&social_code=zz']) {
      const fetch = mockFetch(BOTH);
      arrive(`/user/login${hash}`);
      const { unmount } = render(<LoginPage />);
      await flush();
      expect(authToken(), hash).toBeNull();
      expect(navigate).not.toHaveBeenCalled();
      expect(callsTo(fetch, '/api/auth/social/redeem'), hash).toHaveLength(0);
      expect(callsTo(fetch, '/api/auth/social/link'), hash).toHaveLength(0);
      // The ordinary form, no password-for-linking form, and the fragment is gone.
      expect(screen.getByLabelText('Email or mobile number')).toBeTruthy();
      expect(screen.queryByRole('button', { name: /^Link / })).toBeNull();
      expect(location.hash, hash).toBe('');
      unmount();
    }
  });

  /** Arrives with a code that the origin redeems for a link waiting for the password. */
  const arriveToLink = (provider: 'google' | 'facebook', ticket = 'T1ck3t-abc') => {
    arrive(`/user/login#social_code=${CODE}`);
    return { '/api/auth/social/redeem': { body: { success: true, link: { ticket, provider } } } };
  };

  it('a #social_code for a link asks for the password, links and signs in; the code leaves the address bar', async () => {
    const fetch = mockFetch({
      ...BOTH,
      ...arriveToLink('google'),
      '/api/auth/social/link': { body: { success: true, token: '8|l1nked', user: { name: 'Rina' } } },
    });
    render(<LoginPage />);
    await flush();
    expect(location.hash).toBe('');
    expect(screen.getByText('An account with this e-mail already exists. Enter its password to link Google and sign in.')).toBeTruthy();
    // No ordinary form (and no provider links) while linking.
    expect(screen.queryByLabelText('Email or mobile number')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Link Google and sign in' }));
    expect(screen.getByText('Enter your password.')).toBeTruthy();
    expect(callsTo(fetch, '/api/auth/social/link')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Link Google and sign in' }));
    await flush();
    const [call] = callsTo(fetch, '/api/auth/social/link');
    expect(call[1]?.method).toBe('POST');
    expect(sentJson(call[1])).toEqual({ ticket: 'T1ck3t-abc', password: 'secret12' });
    expect(authToken()).toBe('8|l1nked');
    expect(navigate).toHaveBeenCalledWith('/');
    expect(callsTo(fetch, '/api/auth/social/redeem')).toHaveLength(1);
  });

  it('a link shows a wrong password by its field and signs nobody in', async () => {
    mockFetch({
      ...arriveToLink('facebook', 'T1ck3t'),
      '/api/auth/social/link': {
        status: 400,
        body: { success: false, message: 'The password is not right.', errors: { password: ['The password is not right.'] } },
      },
    });
    render(<LoginPage />);
    await flush();
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong-one' } });
    fireEvent.click(screen.getByRole('button', { name: 'Link Facebook and sign in' }));
    await flush();
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('The password is not right.')).toBeTruthy();
    expect(authToken()).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('a link says how long to wait after too many wrong passwords, as the login form does', async () => {
    mockFetch({
      ...arriveToLink('google', 'T1ck3t'),
      '/api/auth/social/link': { status: 429, headers: { 'Retry-After': '42' }, body: { success: false, message: 'Too many failed sign-ins.' } },
    });
    render(<LoginPage />);
    await flush();
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'guess-1234' } });
    fireEvent.click(screen.getByRole('button', { name: 'Link Google and sign in' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Too many failed sign-ins. Please try again in 42 seconds.');
    expect(authToken()).toBeNull();
  });

  it('a link with a used ticket says so, and the shopper can sign in another way', async () => {
    const message = 'This link to your account is invalid, used or expired. Please sign in with the provider again.';
    mockFetch({
      ...BOTH,
      ...arriveToLink('google', 'old'),
      '/api/auth/social/link': { status: 400, body: { success: false, message, errors: { ticket: [message] } } },
    });
    render(<LoginPage />);
    await flush();
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Link Google and sign in' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe(message);
    fireEvent.click(screen.getByRole('link', { name: 'Sign in another way' }));
    await flush();
    expect(screen.getByLabelText('Email or mobile number')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Continue with Google' })).toBeTruthy();
  });

  it('a link to a provider this page does not know is refused with the generic message', async () => {
    mockFetch({ ...BOTH, '/api/auth/social/redeem': { body: { success: true, link: { ticket: 't', provider: 'myspace' } } } });
    arrive(`/user/login#social_code=${CODE}`);
    render(<LoginPage />);
    await flush();
    expect(screen.getByRole('alert').textContent).toBe(GENERIC_SOCIAL_ERROR);
    expect(screen.queryByRole('button', { name: /^Link / })).toBeNull();
  });

  it('#social_error shows the reason above the sign-in form and clears the fragment', async () => {
    mockFetch(BOTH);
    arrive('/user/login?redirect=/checkout#social_error=Signing%20in%20with%20Facebook%20was%20cancelled.');
    render(<LoginPage />);
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Signing in with Facebook was cancelled.');
    expect(location.hash).toBe('');
    expect(location.search).toBe('?redirect=/checkout');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(authToken()).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('shows each reason the origin sends as it is, and anything else as a generic message', () => {
    for (const reason of [
      'Signing in with Google was cancelled.',
      'That sign-in with Google expired or was started elsewhere. Please try again.',
      'Facebook did not confirm your sign-in. Please try again.',
      'Facebook did not share an e-mail address with us. Please register with your e-mail or mobile number.',
      'Facebook could not confirm that this e-mail address is yours, so we cannot open an account with it. Please register with your e-mail or mobile number; once you have, signing in with Facebook links it with your password.',
      'This account is linked to another Google account.',
      'This account is closed.',
    ])
      expect(socialErrorText(reason), reason).toBe(reason);
    expect(socialErrorText('Your account is locked: call +1 555 0100 now.')).toBe(GENERIC_SOCIAL_ERROR);
    expect(socialErrorText('Signing in with Myspace was cancelled.')).toBe(GENERIC_SOCIAL_ERROR);
  });

  it('reads only the fragments the callback writes, never a token or ticket', () => {
    expect(readSocialFragment('')).toBeNull();
    expect(readSocialFragment('#reviews')).toBeNull();
    expect(readSocialFragment(`#social_code=${CODE}`)).toEqual({ kind: 'code', code: CODE });
    expect(readSocialFragment('#social_code=abc')).toEqual({ kind: 'error', message: GENERIC_SOCIAL_ERROR });
    expect(readSocialFragment(`#social_code=${CODE.toUpperCase()}`)).toEqual({ kind: 'error', message: GENERIC_SOCIAL_ERROR });
    expect(readSocialFragment('#social_token=1%7Cabc')).toBeNull();
    expect(readSocialFragment('#social_link=t&provider=facebook')).toBeNull();
    expect(readSocialFragment('#social_error=%E0%A4%A')).toBeNull();
    expect(readSocialFragment('#social_error=This%20account%20is%20closed.')).toEqual({ kind: 'error', message: 'This account is closed.' });
    expect(isSocialFragment('#social_token=1')).toBe(true);
    expect(isSocialFragment('#reviews')).toBe(false);
  });
});
