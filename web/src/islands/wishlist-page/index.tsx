import { takeOver } from '../../lib/island';
import { WishlistPage } from './WishlistPage';
import type { WishlistPageProps } from './types';

/** Fills the /wishlist shell. */
export default function mount(el: HTMLElement, _props: WishlistPageProps) {
  return takeOver(el, () => <WishlistPage />);
}
