import type { components } from '../../generated/islands';

/** Props of header-counts: none needed; counts come from the API. */
export type HeaderCountsProps = components['schemas']['HeaderCountsProps'];

/** `GET /api/cart/count-notification` (SPEC.md §3). */
export interface CountResponse {
  compareCount?: number;
  wishCount?: number;
  cartCount?: number;
}

export type { Cart, CartLine, CartSet, CartViewResponse } from '../../lib/cart';
