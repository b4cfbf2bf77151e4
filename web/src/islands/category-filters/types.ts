import type { components } from '../../generated/islands';

/** Props of category-filters (as the generator writes them). */
export type CategoryFiltersProps = components['schemas']['CategoryFiltersProps'];

/** One attribute's filter: its label, query parameter and values with the products each leaves. */
export type FilterGroup = CategoryFiltersProps['groups'][number];

export type { ProductCard as ListedProduct, CategoryProductsResponse as ProductsResponse, FiltersResponse } from '../../lib/types';
