/** Props of product-gallery (as the generator writes them). */
export interface ProductGalleryProps {
  id?: number;
  /** The product's slug, for the 360 frames call (default: from /product/<slug>). */
  seo_url?: string;
  /** Stored image paths (`storage/uploads/...`), the first being the one the fallback shows. */
  images?: string[];
  /** A video URL (YouTube or a file), if any. */
  video?: string | null;
  /** How many 360 frames the product has (0: no 360 view). */
  frames_360?: number;
  /** The product's name, for alt texts. */
  title?: string;
  /** Zoom factor (SPEC.md §9: 3). */
  zoom?: number;
}
