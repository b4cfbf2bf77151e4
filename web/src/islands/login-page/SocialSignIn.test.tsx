import { act, fireEvent, render, screen } from '@testing-library/react';
import { authToken } from '../../lib/api';
import { navigate } from '../../lib/navigate';
import { callsTo, mockFetch, sentJson } from '../../lib/test-utils';
import { LoginPage } from './LoginPage';
import { GENERIC_SOCIAL_ERROR, readSocialFragment, socialErrorText } from './SocialSignIn';

vi.mock('../../lib/navigate', () => ({ navigate: vi.fn() }));

const flush = () =>
  act(async () => {
    for (let i = 0; i < 6; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });

/** Arrives at /user/login as the origin's callback sends the browser there. */
const arrive = (address: string) => history.replaceState(null, '', address);

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

  it('#social_token signs in as a password sign-in does, and clears the fragment', async () => {
    mockFetch(BOTH);
    const changed = vi.fn();
    window.addEventListener('cart:changed', changed);
    arrive('/user/login#social_token=7%7Cs0c1al');
    render(<LoginPage />);
    await flush();
    expect(authToken()).toBe('7|s0c1al');
    expect(changed).toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith('/');
    expect(location.hash).toBe('');
    expect(location.pathname).toBe('/user/login');
    window.removeEventListener('cart:changed', changed);
  });

  it('#social_link asks for the password, links and signs in; the ticket leaves the address bar', async () => {
    const fetch = mockFetch({
      ...BOTH,
      '/api/auth/social/link': { body: { success: true, token: '8|l1nked', user: { name: 'Rina' } } },
    });
    arrive('/user/login#social_link=T1ck3t-abc&provider=google');
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
  });

  it('#social_link shows a wrong password by its field and signs nobody in', async () => {
    mockFetch({
      '/api/auth/social/link': {
        status: 400,
        body: { success: false, message: 'The password is not right.', errors: { password: ['The password is not right.'] } },
      },
    });
    arrive('/user/login#social_link=T1ck3t&provider=facebook');
    render(<LoginPage />);
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong-one' } });
    fireEvent.click(screen.getByRole('button', { name: 'Link Facebook and sign in' }));
    await flush();
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('The password is not right.')).toBeTruthy();
    expect(authToken()).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('#social_link says how long to wait after too many wrong passwords, as the login form does', async () => {
    mockFetch({
      '/api/auth/social/link': { status: 429, headers: { 'Retry-After': '42' }, body: { success: false, message: 'Too many failed sign-ins.' } },
    });
    arrive('/user/login#social_link=T1ck3t&provider=google');
    render(<LoginPage />);
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'guess-1234' } });
    fireEvent.click(screen.getByRole('button', { name: 'Link Google and sign in' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Too many failed sign-ins. Please try again in 42 seconds.');
    expect(authToken()).toBeNull();
  });

  it('#social_link with a used ticket says so, and the shopper can sign in another way', async () => {
    const message = 'This link to your account is invalid, used or expired. Please sign in with the provider again.';
    mockFetch({ ...BOTH, '/api/auth/social/link': { status: 400, body: { success: false, message, errors: { ticket: [message] } } } });
    arrive('/user/login#social_link=old&provider=google');
    render(<LoginPage />);
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Link Google and sign in' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toBe(message);
    fireEvent.click(screen.getByRole('link', { name: 'Sign in another way' }));
    await flush();
    expect(screen.getByLabelText('Email or mobile number')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Continue with Google' })).toBeTruthy();
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
      'An account with this e-mail address exists. Please sign in with your password; Google could not confirm the address is yours.',
      'This account is linked to another Google account.',
      'This account is closed.',
    ])
      expect(socialErrorText(reason), reason).toBe(reason);
    expect(socialErrorText('Your account is locked: call +1 555 0100 now.')).toBe(GENERIC_SOCIAL_ERROR);
    expect(socialErrorText('Signing in with Myspace was cancelled.')).toBe(GENERIC_SOCIAL_ERROR);
  });

  it('reads only the fragments the callback writes', () => {
    expect(readSocialFragment('')).toBeNull();
    expect(readSocialFragment('#reviews')).toBeNull();
    expect(readSocialFragment('#social_token=1%7Cabc')).toEqual({ kind: 'token', token: '1|abc' });
    expect(readSocialFragment('#social_link=t&provider=facebook')).toEqual({ kind: 'link', ticket: 't', provider: 'facebook' });
    expect(readSocialFragment('#social_link=t&provider=myspace')).toEqual({ kind: 'error', message: GENERIC_SOCIAL_ERROR });
    expect(readSocialFragment('#social_link=t')).toEqual({ kind: 'error', message: GENERIC_SOCIAL_ERROR });
    expect(readSocialFragment('#social_token=a%20b')).toEqual({ kind: 'error', message: GENERIC_SOCIAL_ERROR });
    expect(readSocialFragment('#social_error=%E0%A4%A')).toBeNull();
    expect(readSocialFragment('#social_error=This%20account%20is%20closed.')).toEqual({ kind: 'error', message: 'This account is closed.' });
  });
});
