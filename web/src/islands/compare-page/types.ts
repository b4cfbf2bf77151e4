import type { components } from '../../generated/islands';

/** Props of compare-page: none. */
export type ComparePageProps = components['schemas']['ComparePageProps'];

/** One attribute row of a compared product (names vary; both are read). */
export interface CompareAttr {
  field_label?: string;
  key?: string;
  label?: string;
  value?: string | number | null;
}

/** `GET /api/common/compare` (ORIGINAL-API.md §3). */
export interface CompareResponse {
  products?: {
    id: number;
    title: string;
    sub_title?: string | null;
    seo_url: string;
    image_url?: string | null;
    short_description?: string | null;
    price_now?: number;
    attr?: CompareAttr[];
  }[];
}
