/** Props of header-counts: none needed; counts come from the API. */
export interface HeaderCountsProps {
  /** Where the profile icon links (default /user/profile). */
  profile_url?: string;
}

/** `GET /api/cart/count-notification` (SPEC.md §3). */
export interface CountResponse {
  compareCount?: number;
  wishCount?: number;
  cartCount?: number;
}

/** One cart line as `GET /api/cart/view` answers it (SPEC.md §3, ORIGINAL-API.md §2). */
export interface CartLine {
  qty: number;
  purchaseprice: number;
  item?: { productcode?: string; sub_title?: string | null } | null;
  info: { id: number; code?: string; title: string; sub_title?: string | null; seo_url?: string; image_url?: string | null };
}

/** A product set in the cart. */
export interface CartSet {
  info: { id?: number; title: string; slug?: string; image_url?: string | null };
  items: CartLine[];
}

export interface CartViewResponse {
  cart?: {
    items?: CartLine[];
    /** An object keyed by set id, or `[]` when there is none. */
    psets?: Record<string, CartSet> | CartSet[];
    totalprice?: number;
    totalqty?: number;
  } | null;
}
