import type { components } from '../../generated/islands';

/** Props of track-order-page: none (`?id=&phone=` fill the form). */
export type TrackOrderPageProps = components['schemas']['TrackOrderPageProps'];

/** `GET /api/cart/track-order?phone=&id=` (ORIGINAL-API.md §2). */
export interface TrackOrderResponse {
  success?: boolean;
  order_masters?:
    | {
        payment_term_status?: string;
        order_status?: string;
        order_date?: string;
        customer_name?: string;
        order_random?: string | number;
      }
    | unknown[];
  order_details?:
    | {
        qty?: number;
        product_code?: string;
        first_image?: { full_size_directory?: string } | null;
        product?: { seo_url?: string; title?: string; sub_title?: string; product_code?: string } | null;
      }[]
    | null;
}
