import type { BuyIsland } from '../../early-buy/buy';
import { apiPost } from '../../lib/api';
import { takeOver } from '../../lib/island';
import { BuyButtons } from './BuyButtons';
import type { BuyButtonsProps } from './types';

/**
 * Takes over the product page's add-to-cart form (or a product set's cart
 * link), showing how an add its fallback started ended. On a product page it also records the visit for "Recently viewed":
 * the page is a cached static file, so the browser tells the server.
 */
export default function mount(el: BuyIsland, props: BuyButtonsProps) {
  if ('id' in props) {
    apiPost('/api/product/recent-view', { pid: props.id }, { quiet: true }).catch(() => {
      // Not worth bothering the shopper about.
    });
  }
  // An add the fallback's button started before React arrived (src/early-buy).
  return takeOver(el, () => <BuyButtons {...props} early={el.early} />);
}
