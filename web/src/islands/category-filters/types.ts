import type { components } from '../../generated/islands';

/** Props of category-filters (as the generator writes them). */
export type CategoryFiltersProps = components['schemas']['CategoryFiltersProps'];

/** One filter group read from the fallback: its label, query parameter and values. */
export interface FilterGroup {
  label: string;
  /** e.g. `filterby_color`. */
  param: string;
  values: { slug: string; label: string }[];
}

export type { ProductCard as ListedProduct, CategoryProductsResponse as ProductsResponse } from '../../lib/types';
