/** Props of buy-buttons on a product page (as the generator writes them). */
export interface ProductBuyProps {
  id: number;
  code: string;
  title: string;
  /** The price now, whole taka. */
  price: number;
  in_stock?: boolean;
  pre_booking?: boolean;
  disable_buy?: boolean;
  /** The chosen variation, when the product has variations. */
  variation_id?: number | null;
  /** The product's main category name, for analytics. */
  category?: string;
}

/** Props of buy-buttons on a product-set page. */
export interface SetBuyProps {
  set_id: number;
  slug: string;
  title?: string;
}

export type BuyButtonsProps = ProductBuyProps | SetBuyProps;

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
