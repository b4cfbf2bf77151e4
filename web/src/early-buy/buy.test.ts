import { act, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import mountButtons from '../islands/buy-buttons/index';
import type { BuyButtonsProps } from '../islands/buy-buttons/types';
import mountCounts from '../islands/header-counts/index';
import { calledUrl, mockFetch, urlOf } from '../lib/test-utils';
import { earlyBuy, type BuyIsland } from './buy';

// The fallbacks as the generator writes them (generator/templates/header.html,
// generator/src/pages/product.rs), on a page whose islands have not started.
const PAGE = `
<div class="icons" data-island="header-counts" data-when="idle"><a href="/cart" aria-label="Cart"><svg class="ic"></svg><b>0</b></a></div>
<div data-island="buy-buttons" data-when="visible"><p><button type="button" class="btn jsonly" data-buy>Add to cart</button><a class="btn nojs" href="/page/chatbuy">Order by chat or phone</a> <a class="btn alt" href="/compare">Compare</a></p><div data-buy-status aria-live="polite"></div></div><script type="application/json" data-island-props>{"id":42,"code":"BED-42","title":"Oslo Bed","price":52000,"pre_booking":false}</script>`;

let root: HTMLElement;
const flush = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });
const buyIsland = () => root.querySelector<BuyIsland>('[data-island="buy-buttons"]')!;

beforeEach(() => {
  window.dataLayer = undefined;
  root = document.createElement('main');
  root.innerHTML = PAGE;
  document.body.append(root);
  earlyBuy(root);
});
afterEach(() => {
  root.remove();
  vi.unstubAllGlobals();
});

describe('early add to cart', () => {
  it('adds with the island call before React, says so, and writes the count into the header fallback', async () => {
    const fetch = mockFetch({
      '/api/cart/add-to-cart': { body: { success: true, title: 'Oslo Bed', product_code: 'BED-42', purchaseprice: 52000, cartCount: 1, total_qty: 3 } },
    });
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Add to cart' });
    button.click();
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
    await flush();
    expect(Object.fromEntries(calledUrl(fetch).searchParams)).toEqual({ main_pid: '42', qty: '1' });
    expect((fetch.mock.calls[0][1]?.headers as Record<string, string>)['SELF-TOKEN']).toBeTruthy();
    expect(button.disabled).toBe(false);
    expect(root.querySelector('[data-buy-status]')!.textContent).toBe('Added to your cart: Oslo Bed. View cart');
    expect(screen.getByRole('link', { name: 'View cart' }).getAttribute('href')).toBe('/cart');
    const cart = screen.getByRole('link', { name: 'Cart, 3 items' });
    expect(cart.querySelector('b')!.textContent).toBe('3');
    expect(window.dataLayer!.at(-1)).toMatchObject({ event: 'add_to_cart', ecommerce: { currency: 'BDT', items: [{ item_id: 'BED-42', quantity: 1 }] } });
  });

  it("shows the cart's error to the shopper and leaves the badge alone", async () => {
    mockFetch({ '/api/cart/add-to-cart': { status: 409, body: { success: false, message: 'Only 0 left in stock' } } });
    screen.getByRole('button', { name: 'Add to cart' }).click();
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Only 0 left in stock');
    expect(screen.getByRole('link', { name: 'Cart' }).querySelector('b')!.textContent).toBe('0');
    expect(window.dataLayer).toBeUndefined();
  });

  it('hands an add still under way to the island, which shows how it ended, once', async () => {
    let answer: (v: import('../lib/test-utils').FakeResponse) => void = () => {};
    const fetch = mockFetch({ '/api/cart/add-to-cart': () => new Promise((r) => (answer = r)), '/api/product/recent-view': { body: {} } });
    screen.getByRole('button', { name: 'Add to cart' }).click();
    const el = buyIsland();
    expect(el.early).toBeInstanceOf(Promise);
    // eslint-disable-next-line @typescript-eslint/require-await -- async act() also flushes what the mount leaves pending
    await act(async () => {
      mountButtons(el, JSON.parse(el.nextElementSibling!.textContent) as BuyButtonsProps);
    });
    // React's buttons now: busy while the early add is under way.
    expect(screen.getByRole('button', { name: 'Add to cart' }).getAttribute('aria-busy')).toBe('true');
    answer({ body: { success: true, title: 'Oslo Bed', cartCount: 1, total_qty: 1 } });
    await flush();
    expect(screen.getByText(/Added to your cart: Oslo Bed\./)).toBeTruthy();
    expect(fetch.mock.calls.filter(([u]) => urlOf(u).includes('add-to-cart'))).toHaveLength(1);
  });

  it('lets header-counts start from the count the early add wrote', async () => {
    mockFetch({
      '/api/cart/add-to-cart': { body: { success: true, title: 'Oslo Bed', cartCount: 1, total_qty: 2 } },
      // Slower than the mount: the adopted count shows meanwhile.
      '/api/cart/count-notification': () => new Promise(() => {}),
    });
    screen.getByRole('button', { name: 'Add to cart' }).click();
    await flush();
    const header = root.querySelector<HTMLElement>('[data-island="header-counts"]')!;
    // eslint-disable-next-line @typescript-eslint/require-await -- async act() also flushes what the mount leaves pending
    await act(async () => {
      mountCounts(header, {});
    });
    expect(screen.getByRole('link', { name: 'Cart, 2 items' })).toBeTruthy();
  });

  it('leaves clicks alone once the island has taken over (its buttons have no data-buy)', async () => {
    const fetch = mockFetch({});
    const { container } = render(createElement('button', { type: 'button' }, 'Add to cart'));
    root.querySelector('[data-island="buy-buttons"]')!.append(container);
    container.querySelector('button')!.click();
    await flush();
    expect(fetch).not.toHaveBeenCalled();
  });
});
