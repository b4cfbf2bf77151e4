import { api, ApiError, apiGet, apiPost, authToken, newSelfToken, readCookie, SELF_TOKEN_SHAPE, serverClockOffset, setAuthToken, waitText } from './api';
import { on } from './events';
import { calledUrl, mockFetch } from './test-utils';

function clearCookies() {
  for (const c of document.cookie.split(';')) {
    const name = c.split('=')[0].trim();
    if (name) document.cookie = `${name}=;path=/;max-age=0`;
  }
}

beforeEach(() => {
  clearCookies();
  localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

describe('api', () => {
  it('creates the self_token cookie from the time and 128 random bits and sends it as SELF-TOKEN', async () => {
    const fetch = mockFetch({ '/api/cart/count-notification': { body: { cartCount: 2 } } });
    const before = Date.now();
    const random = vi.spyOn(crypto, 'getRandomValues');
    await apiGet('/api/cart/count-notification');
    const token = readCookie('self_token')!;
    // The time, then 16 random bytes in base64url: 22 characters.
    expect(token).toMatch(/^\d{13}[A-Za-z0-9_-]{22}$/);
    expect(token).toMatch(SELF_TOKEN_SHAPE);
    expect(random).toHaveBeenCalledWith(expect.any(Uint8Array));
    expect((random.mock.calls[0][0] as Uint8Array).length).toBe(16);
    random.mockRestore();
    expect(Number(token.slice(0, 13))).toBeGreaterThanOrEqual(before);
    const headers = fetch.mock.calls[0][1]!.headers as Record<string, string>;
    expect(headers['SELF-TOKEN']).toBe(token);
    expect(headers.Authorization).toBeUndefined();
    // The same token on the next call.
    await apiGet('/api/cart/count-notification');
    expect((fetch.mock.calls[1][1]!.headers as Record<string, string>)['SELF-TOKEN']).toBe(token);
  });

  it('makes tokens that differ every time', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => newSelfToken().slice(13)));
    expect(tokens.size).toBe(200);
  });

  it('keeps an older client’s self_token while the origin takes it (its cart lives), then makes a new one', async () => {
    const old = '1700000000000k3j2h9abcde';
    document.cookie = `self_token=${old};path=/`;
    let refused = false;
    const fetch = mockFetch({
      '/api/cart/view': () =>
        refused ? { status: 400, body: { success: false, message: 'Invalid', errors: { 'SELF-TOKEN': ['Make a new one.'] } } } : { body: { success: true } },
    });
    await apiGet('/api/cart/view');
    const sent = (i: number) => (fetch.mock.calls[i][1]!.headers as Record<string, string>)['SELF-TOKEN'];
    expect(sent(0)).toBe(old);
    expect(readCookie('self_token')).toBe(old);
    // The cart expired: the origin refuses the old token, and a strong one replaces it.
    refused = true;
    await expect(apiGet('/api/cart/view')).rejects.toThrow();
    expect(sent(1)).toBe(old);
    expect(sent(2)).toMatch(SELF_TOKEN_SHAPE);
    expect(readCookie('self_token')).toBe(sent(2));
  });

  it('replaces a self_token that no client could have made', async () => {
    document.cookie = 'self_token=abc;path=/';
    const fetch = mockFetch({ '/api/cart/view': { body: { success: true } } });
    await apiGet('/api/cart/view');
    const sent = (fetch.mock.calls[0][1]!.headers as Record<string, string>)['SELF-TOKEN'];
    expect(sent).toMatch(SELF_TOKEN_SHAPE);
    expect(readCookie('self_token')).toBe(sent);
  });

  it('makes a new self token and asks once more when the origin refuses the one sent', async () => {
    const strong = '1700000000000Xb7kQ2pL9mZr4TwY8vNc3H';
    document.cookie = `self_token=${strong};path=/`;
    let calls = 0;
    const fetch = mockFetch({
      '/api/cart/view': () =>
        ++calls === 1
          ? { status: 400, body: { success: false, message: 'Invalid', errors: { 'SELF-TOKEN': ['Make a new one.'] } } }
          : { body: { success: true, cart: [] } },
    });
    await expect(apiGet('/api/cart/view')).resolves.toEqual({ success: true, cart: [] });
    const second = (fetch.mock.calls[1][1]!.headers as Record<string, string>)['SELF-TOKEN'];
    expect(second).not.toBe(strong);
    expect(second).toMatch(SELF_TOKEN_SHAPE);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('keeps an existing self_token and adds the Bearer token after login', async () => {
    const strong = '1700000000000Xb7kQ2pL9mZr4TwY8vNc3H';
    document.cookie = `self_token=${strong};path=/`;
    setAuthToken('7|secret');
    const fetch = mockFetch({ '/api/user/wishlist': { body: { products: [] } } });
    await apiGet('/api/user/wishlist');
    const headers = fetch.mock.calls[0][1]!.headers as Record<string, string>;
    expect(headers['SELF-TOKEN']).toBe(strong);
    expect(headers.Authorization).toBe('Bearer 7|secret');
  });

  it('builds the query and leaves out empty parameters', async () => {
    const fetch = mockFetch({ '/api/cart/add-to-cart': { body: { success: true } } });
    await apiGet('/api/cart/add-to-cart', { main_pid: 5, qty: 1, variation_id: null });
    const url = calledUrl(fetch);
    expect(url.searchParams.get('main_pid')).toBe('5');
    expect(url.searchParams.get('qty')).toBe('1');
    expect(url.searchParams.has('variation_id')).toBe(false);
  });

  it('sends Idempotency-Key only when the call gives one', async () => {
    const fetch = mockFetch({ '/api/cart/store-payment-method': { body: { success: true } } });
    await apiPost('/api/cart/store-payment-method', {}, { idempotencyKey: '17-abc' });
    await apiPost('/api/cart/store-payment-method', {});
    expect((fetch.mock.calls[0][1]!.headers as Record<string, string>)['Idempotency-Key']).toBe('17-abc');
    expect((fetch.mock.calls[1][1]!.headers as Record<string, string>)['Idempotency-Key']).toBeUndefined();
  });

  it('posts JSON', async () => {
    const fetch = mockFetch({ '/api/cart/coupon-apply': { body: { success: true } } });
    await apiPost('/api/cart/coupon-apply', { coupon: 'EID' });
    const init = fetch.mock.calls[0][1]!;
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"coupon":"EID"}');
  });

  it('throws an ApiError with the status, message and field errors of the error body', async () => {
    mockFetch({
      '/api/cart/add-to-cart': {
        status: 422,
        body: { success: false, message: 'This product is out of stock', errors: { qty: ['Too many'] } },
      },
    });
    const err = (await apiGet('/api/cart/add-to-cart').catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(422);
    expect(err.message).toBe('This product is out of stock');
    expect(err.errors).toEqual({ qty: ['Too many'] });
  });

  it('treats a 200 with success false as an error, as the original API answered', async () => {
    mockFetch({ '/api/cart/add-to-cart': { body: { success: false, message: 'Pre-booking products cannot share a cart' } } });
    await expect(apiGet('/api/cart/add-to-cart')).rejects.toMatchObject({ status: 200, message: 'Pre-booking products cannot share a cart' });
  });

  it('gives a readable message for a network failure and a body without one', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(api('/api/x')).rejects.toMatchObject({ status: 0, message: 'No connection. Check your internet and try again.' });
    mockFetch({ '/api/x': { status: 500, body: null } });
    await expect(api('/api/x')).rejects.toMatchObject({ status: 500, message: 'Something went wrong on our side. Please try again.' });
  });

  it('forgets an expired Bearer token on 401', async () => {
    setAuthToken('old');
    mockFetch({ '/api/user/add-to-wishlist': { status: 401, body: { message: 'Unauthenticated.' } } });
    await expect(api('/api/user/add-to-wishlist')).rejects.toMatchObject({ status: 401, message: 'Unauthenticated.' });
    expect(authToken()).toBeNull();
  });

  it('fires loading events, and a failure event on errors, unless quiet', async () => {
    const seen: string[] = [];
    const offs = [
      on('loading:start', () => seen.push('start')),
      on('loading:finish', () => seen.push('finish')),
      on('loading:fail', (d) => seen.push(`fail ${d.status}`)),
    ];
    mockFetch({ '/api/ok': { body: {} }, '/api/bad': { status: 500, body: {} } });
    await api('/api/ok');
    await api('/api/bad').catch(() => {});
    await api('/api/ok', { quiet: true });
    offs.forEach((off) => off());
    expect(seen).toEqual(['start', 'finish', 'start', 'finish', 'fail 500']);
  });

  it('learns the server clock from the Date and Age headers', async () => {
    const serverNow = Date.now() + 90_000;
    mockFetch({ '/api/x': { body: {}, headers: { Date: new Date(serverNow - 10_000).toUTCString(), Age: '10' } } });
    await api('/api/x');
    expect(Math.abs(serverClockOffset()! - 90_000)).toBeLessThan(2_000);
  });

  it('tells how long to wait on a 429, from Retry-After when the answer does not say', async () => {
    mockFetch({
      '/api/auth/login': { status: 429, headers: { 'Retry-After': '120' }, body: { success: false, message: 'Too many attempts.' } },
      '/api/auth/register': {
        status: 429,
        headers: { 'Retry-After': '5' },
        body: { success: false, message: 'Too many accounts. Please try again in 5 seconds.' },
      },
    });
    const first = await apiPost('/api/auth/login', {}).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(ApiError);
    expect((first as ApiError).retryAfter).toBe(120);
    expect((first as ApiError).message).toBe('Too many attempts. Please try again in 2 minutes.');
    const second = (await apiPost('/api/auth/register', {}).catch((e: unknown) => e)) as ApiError;
    expect(second.message).toBe('Too many accounts. Please try again in 5 seconds.');
    expect(second.retryAfter).toBe(5);
    expect(waitText(1)).toBe('1 second');
    expect(waitText(3601)).toBe('2 hours');
  });
});
