import { takeOver } from '../../lib/island';
import { OrderPage } from './OrderPage';
import type { OrderPageProps } from './types';

/** Fills the /order shell. */
export default function mount(el: HTMLElement, _props: OrderPageProps) {
  return takeOver(el, () => <OrderPage />);
}
