// Test fixtures in the shapes the server sends (the generated API types):
// builders that fill every field the real answer always has, so a test names
// only the fields it is about.
import type { Cart, CartLine, CartSet } from './types';

/** A cart line for product `info.id`, code `info.code`; `item` names its variation. */
export function cartLine(l: {
  qty: number;
  purchaseprice: number;
  info: Pick<CartLine['info'], 'id' | 'code' | 'title'> & Partial<CartLine['info']>;
  item?: Partial<CartLine['item']>;
}): CartLine {
  const code = l.item?.productcode ?? l.info.code;
  return {
    qty: l.qty,
    purchaseprice: l.purchaseprice,
    total: l.qty * l.purchaseprice,
    product_id: l.info.id,
    item: {
      productid: l.info.id,
      productcode: code,
      item_code: code,
      sub_title: '',
      purchaseprice: l.purchaseprice,
      qty: l.qty,
      pre_price: l.purchaseprice,
      ...l.item,
    },
    info: {
      sub_title: '',
      short_description: '',
      seo_url: l.info.code.toLowerCase(),
      sku: l.info.code,
      qty: 10,
      price: l.purchaseprice,
      product_category: [],
      cash_on_delivery: true,
      pre_booking: false,
      ...l.info,
    },
  };
}

/** A product set in the cart. */
export function cartSet(info: Pick<CartSet['info'], 'id' | 'title'> & Partial<CartSet['info']>, items: CartLine[]): CartSet {
  return { info: { description: '', slug: info.title.toLowerCase().replace(/\s+/g, '-'), ...info }, items };
}

/** A cart of `items` and `sets` (by id, or the server's `[]` when there are none); totals from the lines unless given. */
export function cartOf(items: CartLine[], sets: CartSet[] = [], more: Partial<Cart> = {}): Cart {
  const lines = [...items, ...sets.flatMap((s) => s.items)];
  return {
    items,
    psets: sets.length ? Object.fromEntries(sets.map((s) => [String(s.info.id), s])) : [],
    totalprice: lines.reduce((t, l) => t + l.total, 0),
    totalqty: lines.reduce((t, l) => t + l.qty, 0),
    discount: 0,
    product_maximum_arrive_time: null,
    ...more,
  };
}
