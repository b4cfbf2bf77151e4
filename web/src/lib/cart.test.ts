import { discountOf, lineCode, removeLine, removeSet, setQuantity, setsOf, type CartLine } from './cart';
import { cartLine, cartOf, cartSet } from './fixtures';
import { calledUrl, mockFetch, sentJson } from './test-utils';

const line: CartLine = cartLine({ qty: 2, purchaseprice: 1000, item: { productcode: 'C-1-RED' }, info: { id: 5, code: 'C-1', title: 'Chair' } });
const plain: CartLine = cartLine({ qty: 1, purchaseprice: 500, info: { id: 6, code: 'T-1', title: 'Table' } });

beforeEach(() => {
  window.dataLayer = undefined;
});
afterEach(() => vi.unstubAllGlobals());

describe('cart helpers', () => {
  it('picks the variation code, lists sets from an object or an empty array, and computes discounts', () => {
    expect(lineCode(line)).toBe('C-1-RED');
    expect(lineCode({ ...line, item: { ...line.item, productcode: '' } })).toBe('C-1');
    expect(setsOf(cartOf([line]))).toEqual([]);
    expect(setsOf(cartOf([], [cartSet({ id: 3, title: 'Set' }, [plain])]))).toHaveLength(1);
    expect(discountOf({ ...cartOf([]), totalprice: 20000, discount: 10, discount_type: 'Percentage' })).toBe(2000);
    expect(discountOf({ ...cartOf([]), totalprice: 20000, discount: 500, discount_type: 'Fixed' })).toBe(500);
    expect(discountOf({ ...cartOf([]), totalprice: 20000 })).toBe(0);
  });

  it('removes a line and a set with the original parameter names, firing cart:changed', async () => {
    const fetch = mockFetch({ '/api/cart/remove-cart-item': { body: { success: true } } });
    const changed = vi.fn();
    window.addEventListener('cart:changed', changed);
    await removeLine(line);
    await removeSet(cartSet({ id: 3, title: 'Set' }, [line, plain]));
    window.removeEventListener('cart:changed', changed);
    expect(Object.fromEntries(calledUrl(fetch, 0).searchParams)).toEqual({ pid: '5', pcode: 'C-1-RED' });
    expect(calledUrl(fetch, 1).searchParams.get('pid_codes')).toBe('5:C-1-RED,6:T-1');
    expect(changed).toHaveBeenCalledTimes(2);
  });

  it('updates a quantity with items keyed by line code, and counts the difference in analytics', async () => {
    const fetch = mockFetch({ '/api/cart/update': { body: { success: true, message: 'Cart updated' } } });
    await setQuantity(line, 5);
    expect(sentJson(fetch.mock.calls[0][1])).toEqual({ items: { 'C-1-RED': { id: 5, code: 'C-1-RED', qty: 5 } } });
    expect(window.dataLayer!.at(-1)).toMatchObject({ event: 'add_to_cart', ecommerce: { items: [{ quantity: 3 }] } });
    await setQuantity(line, 1);
    expect(window.dataLayer!.at(-1)).toMatchObject({ event: 'remove_from_cart', ecommerce: { items: [{ quantity: 1 }] } });
  });
});
