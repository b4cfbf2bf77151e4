import type { components } from '../../generated/islands';

/** Props of the search-box island (all optional: the generator writes none today). */
export type SearchBoxProps = components['schemas']['SearchBoxProps'];

/** `GET /api/common/main-search-product?keyword=` (SPEC.md §3). */
export interface SearchResponse {
  search: { title: string; sub_title?: string | null; url: string }[];
  terms: { name: string; url: string }[];
}
