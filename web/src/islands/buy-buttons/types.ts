import type { components } from '../../generated/islands';

/** Props of buy-buttons on a product page (as the generator writes them). */
export type ProductBuyProps = components['schemas']['ProductBuyProps'];

/** Props of buy-buttons on a product-set page. */
export type SetBuyProps = components['schemas']['SetBuyProps'];

export type BuyButtonsProps = components['schemas']['BuyButtonsProps'];

/** `GET /api/cart/add-to-cart` on success (SPEC.md §3, ORIGINAL-API.md §2). */
export interface AddToCartResponse {
  success: boolean;
  title?: string;
  product_code?: string;
  purchaseprice?: number;
  cat_name?: string;
  sub_title?: string;
  total_qty?: number;
  /** The cart's lines after the add, as count-notification's `cartCount`. */
  cartCount?: number;
  message?: string;
}
