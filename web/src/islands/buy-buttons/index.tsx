import { apiPost } from '../../lib/api';
import { takeOver } from '../../lib/island';
import { BuyButtons } from './BuyButtons';
import type { BuyButtonsProps } from './types';

/**
 * Takes over the product page's add-to-cart form (or a product set's cart
 * link). On a product page it also records the visit for "Recently viewed":
 * the page is a cached static file, so the browser tells the server.
 */
export default function mount(el: HTMLElement, props: BuyButtonsProps) {
  if ('id' in props) {
    apiPost('/api/product/recent-view', { pid: props.id }, { quiet: true }).catch(() => {
      // Not worth bothering the shopper about.
    });
  }
  return takeOver(el, () => <BuyButtons {...props} />);
}
