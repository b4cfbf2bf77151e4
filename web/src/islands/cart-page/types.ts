import type { components } from '../../generated/islands';

/** Props of cart-page: none (the cart is the visitor's, from the API). */
export type CartPageProps = components['schemas']['CartPageProps'];

/** `GET /api/common/districts`. */
export interface DistrictsResponse {
  districts?: { id?: number; division?: string; district: string }[];
}

/** `GET /api/cart/get-delivery-charge?district=`. */
export interface DeliveryChargeResponse {
  deliverycharge?: number;
  total_amount?: number;
}

/** `POST /api/cart/coupon-apply`. */
export interface CouponResponse {
  success?: boolean;
  message?: string;
}
