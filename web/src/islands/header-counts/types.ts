/** Props of header-counts: none needed; counts come from the API. */
export interface HeaderCountsProps {
  /** Where the profile icon links (default /user/profile). */
  profile_url?: string;
  /** The cart's count when the page already knows it (not from the generator: from an early add). */
  cartCount?: number;
}

/** `GET /api/cart/count-notification` (SPEC.md §3). */
export interface CountResponse {
  compareCount?: number;
  wishCount?: number;
  cartCount?: number;
}

export type { Cart, CartLine, CartSet, CartViewResponse } from '../../lib/cart';
