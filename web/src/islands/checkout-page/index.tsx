import { takeOver } from '../../lib/island';
import { CheckoutPage } from './CheckoutPage';
import type { CheckoutPageProps } from './types';

/** Fills the /checkout shell. */
export default function mount(el: HTMLElement, _props: CheckoutPageProps) {
  return takeOver(el, () => <CheckoutPage />);
}
