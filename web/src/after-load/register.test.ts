import { canRegister, registerServiceWorker, SW_URL } from './register';

const CHROME = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const HEADLESS = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36';

describe('registerServiceWorker', () => {
  it('registers /sw.js for the whole site in a browser that supports it, on a secure page', async () => {
    const register = vi.fn(() => Promise.resolve({}));
    const nav = { userAgent: CHROME, serviceWorker: { register } } as unknown as Navigator;
    await registerServiceWorker(nav, true);
    expect(register).toHaveBeenCalledWith(SW_URL, { scope: '/' });
    expect(SW_URL).toBe('/sw.js');
  });

  it('does nothing without support, on an insecure page, or for crawlers and link previews', () => {
    expect(canRegister({ userAgent: CHROME, serviceWorker: {} }, true)).toBe(true);
    expect(canRegister({ userAgent: HEADLESS, serviceWorker: {} }, true)).toBe(true);
    expect(canRegister({ userAgent: CHROME }, true)).toBe(false);
    expect(canRegister({ userAgent: CHROME, serviceWorker: {} }, false)).toBe(false);
    for (const bot of [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'Mozilla/5.0 (compatible; YandexSpider/3.0)',
    ]) {
      expect(canRegister({ userAgent: bot, serviceWorker: {} }, true), bot).toBe(false);
    }
    const register = vi.fn();
    expect(registerServiceWorker({ userAgent: 'Googlebot', serviceWorker: { register } } as unknown as Navigator, true)).toBeUndefined();
    expect(register).not.toHaveBeenCalled();
  });

  it('a failed registration is logged, not thrown', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const nav = { userAgent: CHROME, serviceWorker: { register: async () => Promise.reject(new Error('bad MIME type')) } } as unknown as Navigator;
    await expect(registerServiceWorker(nav, true)).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});
