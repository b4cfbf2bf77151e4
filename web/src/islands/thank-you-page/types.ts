import type { components } from '../../generated/islands';

/** Props of thank-you-page: none; the query carries `order_random` and `order_key`. */
export type ThankYouPageProps = components['schemas']['ThankYouPageProps'];

/** `GET /api/cart/order-details?order_random=&secret_key=` (ORIGINAL-API.md §2). */
export interface OrderDetailsResponse {
  order_masters?: {
    order_id?: number | string;
    customer_name?: string;
    phone?: string;
    address?: string;
    district?: string;
    order_date?: string;
    payment_method?: string;
    payment_term_status?: string;
    order_status?: string;
    delivery_fee?: number;
    grand_total?: number;
    total_amount?: number;
    amount_paid?: number;
    coupon_code?: string | null;
    coupon_discount?: number | null;
  } | null;
  order_details?: {
    name?: string;
    seo_url?: string;
    image_url?: string | null;
    product_code?: string;
    qty?: number;
    local_purchase_price?: number;
    total_purchase_price?: number;
  }[];
}
