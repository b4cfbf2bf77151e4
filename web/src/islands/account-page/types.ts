import type { components } from '../../generated/islands';

/** Props of account-page: none; the view comes from the path (/user/<view>). */
export type AccountPageProps = components['schemas']['AccountPageProps'];

export type View = 'profile' | 'wishlist' | 'orders' | 'reviews' | 'address' | 'change-password';

/** `GET /api/auth/user`. */
export interface User {
  name?: string;
  email?: string;
  phone?: string;
  birthday?: string | null;
  gender?: string | null;
}

/** `GET /api/user/orders` (ORIGINAL-API.md §9). */
export interface OrdersResponse {
  orders?: {
    id: number;
    order_random?: string | number;
    order_key?: string;
    order_date?: string;
    payment_method?: string;
    payment_term_status?: string;
    od_status?: string;
    grand_total?: number;
    products?: { product_code?: string; qty?: number; local_purchase_price?: number; product?: { title?: string; seo_url?: string } | null }[];
  }[];
}

/** `GET /api/user/reviews`: an object keyed by review id. */
export interface ReviewsResponse {
  reviews?:
    | Record<
        string,
        { product?: { title?: string; seo_url?: string } | unknown[]; rating?: number; comment?: string; is_active?: number | boolean; created_at?: string }
      >
    | unknown[];
}

/** One saved address. */
export interface Address {
  id: number;
  name: string;
  address: string;
  region?: string;
  district: string;
  phone: string;
}

/** `GET /api/user/address-list`: an object keyed by id, or `[]`. */
export interface AddressesResponse {
  addresses?: Record<string, Address> | Address[];
}
