import { takeOver } from '../../lib/island';
import { CartPage } from './CartPage';
import type { CartPageProps } from './types';

/** Fills the /cart shell. */
export default function mount(el: HTMLElement, _props: CartPageProps) {
  return takeOver(el, () => <CartPage />);
}
