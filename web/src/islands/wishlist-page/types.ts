/** Props of wishlist-page: none. */
export type WishlistPageProps = Record<string, never>;

/** `GET /api/user/wishlist` (ORIGINAL-API.md §9). */
export interface WishlistResponse {
  products?: { id: number; title: string; sub_title?: string | null; seo_url: string; image_url?: string | null; product_price_now?: number }[];
}
