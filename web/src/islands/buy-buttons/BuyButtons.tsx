// Add to cart, wishlist and compare (SPEC.md §2, §7): the product page's
// buttons, as the fallback drew them. Each answer is shown to the shopper,
// errors included (the original ignored cart errors); successes tell the
// other islands (cart:changed, wishlist:changed, compare:changed) and push
// the analytics events (add_to_cart; add_to_wishlist only once the server
// said yes). Wishlist needs a signed-in shopper: a guest is told so, with a
// sign-in link that comes back to this product (as after a 401).
import { useEffect, useEffectEvent, useRef } from 'react';
import * as analytics from '../../lib/analytics';
import { apiGet, authToken } from '../../lib/api';
import { addProduct, addedMessage } from '../../lib/cart';
import { emit } from '../../lib/events';
import { FeedbackLine, signInForWishlist, useActions, type Feedback } from './actions';
import styles from './BuyButtons.module.css';
import { SetButtons } from './SetButtons';
import type { AddProductResponse, ListAddResponse, BuyButtonsProps, ProductBuyProps, SetBuyProps } from './types';

const isSet = (p: BuyButtonsProps): p is SetBuyProps => 'set_id' in p;

/** A product's buttons; `early` is an add the fallback's button started before React arrived, shown as if made here. */
function ProductButtons({ early, ...p }: ProductBuyProps & { early?: Promise<AddProductResponse> }) {
  const { busy, feedback, run } = useActions();
  const added = (r: AddProductResponse): Feedback => ({ ok: true, text: addedMessage(p, r), link: { href: '/cart', label: 'View cart' } });
  const adopted = useRef(false);
  // An effect event: the effect below depends on the early add alone, and the message still uses this render's props.
  const adopt = useEffectEvent((add: Promise<AddProductResponse>) => void run('cart', async () => added(await add)));
  useEffect(() => {
    if (!early || adopted.current) return;
    adopted.current = true;
    adopt(early);
  }, [early]);
  const item = (): analytics.AnalyticsItem => ({
    item_id: p.code || String(p.id),
    item_name: p.title,
    price: p.price,
    quantity: 1,
    ...(p.category ? { item_category: p.category } : {}),
  });

  const addToCart = () =>
    run('cart', async () =>
      added(await addProduct({ id: p.id, title: p.title, price: p.price, code: p.code, category: p.category, variation_id: p.variation_id })),
    );
  const addToWishlist = () =>
    run('wishlist', async () => {
      if (!authToken()) return signInForWishlist();
      await apiGet('/api/user/add-to-wishlist', { pid: p.id });
      analytics.addToWishlist(item());
      emit('wishlist:changed', {});
      return { ok: true, text: 'Added to your wishlist.', link: { href: '/wishlist', label: 'See wishlist' } };
    });
  const addToCompare = () =>
    run('compare', async () => {
      await apiGet<ListAddResponse>('/api/common/add-to-compare', { pid: p.id });
      emit('compare:changed', {});
      return { ok: true, text: 'Added to compare.', link: { href: '/compare', label: 'Compare now' } };
    });

  return (
    <div className={styles.wrap}>
      <button type="button" className="btn" disabled={p.disable_buy || busy !== null} aria-busy={busy === 'cart'} onClick={() => void addToCart()}>
        {p.pre_booking ? 'Pre-book now' : 'Add to cart'}
      </button>{' '}
      <button type="button" className="btn alt" disabled={busy !== null} aria-busy={busy === 'compare'} onClick={() => void addToCompare()}>
        Compare
      </button>{' '}
      <button type="button" className="btn alt" disabled={busy !== null} aria-busy={busy === 'wishlist'} onClick={() => void addToWishlist()}>
        Wishlist
      </button>
      <FeedbackLine feedback={feedback} />
    </div>
  );
}

export function BuyButtons({ early, ...props }: BuyButtonsProps & { early?: Promise<AddProductResponse> }) {
  return isSet(props) ? <SetButtons {...props} /> : <ProductButtons {...props} early={early} />;
}
