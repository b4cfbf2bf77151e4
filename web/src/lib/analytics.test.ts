import { addToCart, addToWishlist, purchase, removeFromCart, viewItemList } from './analytics';

beforeEach(() => {
  window.dataLayer = undefined;
});

const last = () => window.dataLayer![window.dataLayer!.length - 1] as { event: string; ecommerce: Record<string, unknown> };

describe('analytics', () => {
  it('clears the previous ecommerce object before each event', () => {
    addToCart([{ item_id: 'BED-1', item_name: 'Bed', price: 50000 }]);
    expect(window.dataLayer![0]).toEqual({ ecommerce: null });
    expect(window.dataLayer).toHaveLength(2);
  });

  it('sends add_to_cart with affiliation Regal, tier Ground and BDT', () => {
    addToCart([{ item_id: 'BED-1', item_name: 'Bed', price: 50000, quantity: 2, item_category: 'Beds' }]);
    expect(last()).toEqual({
      event: 'add_to_cart',
      ecommerce: {
        currency: 'BDT',
        value: 100000,
        shipping_tier: 'Ground',
        items: [{ affiliation: 'Regal', item_id: 'BED-1', item_name: 'Bed', price: 50000, quantity: 2, item_category: 'Beds' }],
      },
    });
  });

  it('sends remove_from_cart, add_to_wishlist with quantity 1, view_item_list and purchase', () => {
    removeFromCart([{ item_id: 'C-2', item_name: 'Chair', price: 900 }]);
    expect(last().event).toBe('remove_from_cart');
    expect(last().ecommerce.value).toBe(900);

    addToWishlist({ item_id: '42', item_name: 'Sofa', price: 30000, quantity: 3 });
    expect(last()).toMatchObject({ event: 'add_to_wishlist', ecommerce: { currency: 'BDT', value: 30000, items: [{ quantity: 1 }] } });

    viewItemList('Beds', [
      { item_id: 'a', item_name: 'A' },
      { item_id: 'b', item_name: 'B' },
    ]);
    expect(last()).toMatchObject({
      event: 'view_item_list',
      ecommerce: { item_list_name: 'Beds', items: [{ index: 0 }, { index: 1, item_list_name: 'Beds' }] },
    });

    purchase({ transaction_id: 'R-1001', value: 51000, shipping: 1000, items: [{ item_id: 'BED-1', item_name: 'Bed', price: 50000 }] });
    expect(last()).toMatchObject({ event: 'purchase', ecommerce: { transaction_id: 'R-1001', currency: 'BDT', affiliation: 'Regal', value: 51000 } });
  });
});
