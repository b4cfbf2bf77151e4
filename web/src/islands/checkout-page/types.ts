import type { components } from '../../generated/islands';

/** Props of checkout-page: none. */
export type CheckoutPageProps = components['schemas']['CheckoutPageProps'];

/** `GET /api/common/districts`. */
export interface DistrictsResponse {
  districts?: { division?: string; district: string }[];
}

/** `GET /api/user/get-default-address?type=shipping` (signed-in shoppers). */
export interface DefaultAddressResponse {
  address?: { name?: string; address?: string; district?: string; region?: string; phone?: string } | unknown[] | null;
}

/** `GET /api/auth/user`. */
export interface UserResponse {
  user?: { name?: string; email?: string; phone?: string; emergency_phone?: string; emergency_mobile?: string };
}
