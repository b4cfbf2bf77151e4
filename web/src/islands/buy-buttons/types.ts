import type { components } from '../../generated/islands';

/** Props of buy-buttons on a product page (as the generator writes them). */
export type ProductBuyProps = components['schemas']['ProductBuyProps'];

/** Props of buy-buttons on a product-set page. */
export type SetBuyProps = components['schemas']['SetBuyProps'];

export type BuyButtonsProps = components['schemas']['BuyButtonsProps'];

export type { AddProductResponse, AddSetResponse, ListAddResponse, SetFabricsResponse, SetProductsResponse } from '../../lib/types';
