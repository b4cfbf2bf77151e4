import { takeOver } from '../../lib/island';
import { Wishlist } from '../../components/Wishlist';
import type { WishlistPageProps } from './types';

/** Fills the /wishlist shell. */
export default function mount(el: HTMLElement, _props: WishlistPageProps) {
  return takeOver(el, () => <Wishlist />);
}
