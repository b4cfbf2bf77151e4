import type { components } from '../../generated/islands';

/** Props of header-counts: none needed; counts come from the API. */
export type HeaderCountsProps = components['schemas']['HeaderCountsProps'];

export type { Cart, CartLine, CartSet, CartViewResponse } from '../../lib/cart';
export type { CountResponse } from '../../lib/types';
