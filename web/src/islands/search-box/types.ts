/** Props of the search-box island (all optional: the generator writes none today). */
export interface SearchBoxProps {
  /** The keyword to show, e.g. on a search result page (`/c/products?keyword=`). */
  keyword?: string;
  /** Debounce before asking for suggestions, in ms (SPEC.md §9: 500). */
  debounce_ms?: number;
}

/** `GET /api/common/main-search-product?keyword=` (SPEC.md §3). */
export interface SearchResponse {
  search: { title: string; sub_title?: string | null; url: string }[];
  terms: { name: string; url: string }[];
}
