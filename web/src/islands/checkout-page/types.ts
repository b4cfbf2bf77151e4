import type { components } from '../../generated/islands';

/** Props of checkout-page: none. */
export type CheckoutPageProps = components['schemas']['CheckoutPageProps'];

export type { DefaultAddressResponse, DeliveryChargeResponse, DistrictsResponse, UserResponse } from '../../lib/types';
