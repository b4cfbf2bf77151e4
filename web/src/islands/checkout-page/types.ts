import type { components } from '../../generated/islands';

/** Props of checkout-page: none. */
export type CheckoutPageProps = components['schemas']['CheckoutPageProps'];

export type { DefaultAddressResponse, DistrictsResponse, UserResponse } from '../../lib/types';
