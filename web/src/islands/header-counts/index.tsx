import { takeOver } from '../../lib/island';
import { HeaderCounts } from './HeaderCounts';
import type { HeaderCountsProps } from './types';

/**
 * Takes over the header's icon links (`.icons`), keeping their markup and
 * classes, and the cart count an early Add to cart wrote into the fallback
 * (`data-count`, src/early-buy) until the server's counts arrive.
 */
export default function mount(el: HTMLElement, props: HeaderCountsProps) {
  const told = el.querySelector<HTMLElement>('a[href="/cart"][data-count]')?.dataset.count;
  return takeOver(el, () => <HeaderCounts {...props} cartCount={told === undefined ? undefined : Number(told)} />);
}
