import { takeOver } from '../../lib/island';
import { BuyButtons } from './BuyButtons';
import type { BuyButtonsProps } from './types';

/** Takes over the product page's add-to-cart form (or a product set's cart link). */
export default function mount(el: HTMLElement, props: BuyButtonsProps) {
  return takeOver(el, () => <BuyButtons {...props} />);
}
