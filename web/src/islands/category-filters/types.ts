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

/** A product card as `category/products` lists it (PCARD, ORIGINAL-API.md §0.4). */
export interface ListedProduct {
  id: number;
  title: string;
  sub_title?: string | null;
  seo_url: string;
  product_code?: string;
  local_selling_price?: number;
  local_discount?: number;
  product_price_now: number;
  first_image?: { full_size_directory: string } | null;
}

/** `GET /api/category/products`: `{products: paginator}`. */
export interface ProductsResponse {
  products: { data: ListedProduct[]; current_page: number; last_page: number; total: number };
}
