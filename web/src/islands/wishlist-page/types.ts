import type { components } from '../../generated/islands';

/** Props of wishlist-page: none. */
export type WishlistPageProps = components['schemas']['WishlistPageProps'];

export type { WishlistResponse } from '../../components/Wishlist';
