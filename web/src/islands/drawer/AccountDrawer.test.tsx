import { act, fireEvent, render, screen } from '@testing-library/react';
import { AUTH_TOKEN_KEY } from '../../lib/api';
import { mockFetch } from '../../lib/test-utils';
import { AccountDrawer } from './AccountDrawer';

const flush = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });

function setup() {
  document.body.innerHTML =
    '<a id="icon" href="#account" aria-label="My Profile">P</a><nav id="account" class="dr dr-r" aria-label="Account menu"><a class="x" href="#" aria-label="Close account menu">×</a><div id="host"></div></nav>';
  const fetch = mockFetch({ '/api/auth/user': { body: { success: true, user: { id: 1, name: 'Rahima Khatun' } } } });
  render(<AccountDrawer />, { container: document.getElementById('host')! });
  return { fetch, nav: document.getElementById('account')!, icon: document.getElementById('icon')! };
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  document.body.className = '';
});

describe('account drawer', () => {
  it('opens from links to #account, offers sign-in to a guest, closes on Escape and gives focus back', async () => {
    const { nav, icon, fetch } = setup();
    expect(nav.hasAttribute('inert')).toBe(true);
    icon.focus();
    fireEvent.click(icon);
    expect(nav.hasAttribute('data-open')).toBe(true);
    expect(document.body.classList.contains('modal-open')).toBe(true);
    expect(nav.contains(document.activeElement)).toBe(true);
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/user/login');
    expect(screen.getByRole('link', { name: 'Create account' }).getAttribute('href')).toBe('/user/registration');
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(nav.hasAttribute('data-open')).toBe(false);
    expect(document.activeElement).toBe(icon);
    await flush();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows a signed-in shopper their name and account links, and closes on the backdrop and the × link', async () => {
    localStorage.setItem(AUTH_TOKEN_KEY, 'tok');
    const { nav, icon } = setup();
    fireEvent.click(icon);
    await flush();
    expect(screen.getByRole('heading', { name: 'Hello, Rahima Khatun' })).toBeTruthy();
    for (const [name, href] of [
      ['My profile', '/user/profile'],
      ['My orders', '/user/orders'],
      ['Wishlist', '/wishlist'],
      ['Reviews', '/user/reviews'],
    ])
      expect(screen.getByRole('link', { name }).getAttribute('href')).toBe(href);
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
    fireEvent.click(document.body.lastElementChild!);
    expect(nav.hasAttribute('data-open')).toBe(false);
    fireEvent.click(icon);
    fireEvent.click(screen.getByRole('link', { name: 'Close account menu' }));
    expect(nav.hasAttribute('data-open')).toBe(false);
    await flush();
  });
});
