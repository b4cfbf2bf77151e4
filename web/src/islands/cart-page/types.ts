import type { components } from '../../generated/islands';

/** Props of cart-page: none (the cart is the visitor's, from the API). */
export type CartPageProps = components['schemas']['CartPageProps'];

export type { CouponApplyResponse, DeliveryChargeResponse, DistrictsResponse } from '../../lib/types';
