import { takeOver } from '../../lib/island';
import { PaymentPage } from './PaymentPage';
import type { PaymentPageProps } from './types';

/** Fills the /payment shell. */
export default function mount(el: HTMLElement, _props: PaymentPageProps) {
  return takeOver(el, () => <PaymentPage />);
}
