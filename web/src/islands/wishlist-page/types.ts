/** Props of wishlist-page: none. */
export type WishlistPageProps = Record<string, never>;

export type { WishlistResponse } from '../../components/Wishlist';
