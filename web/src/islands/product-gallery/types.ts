import type { components } from '../../generated/islands';

/**
 * Props of product-gallery: a product page's (generated from the generator's type), or none
 * at all (`{}`) on an interior's gallery, whose picture grid the island leaves alone.
 */
export type ProductGalleryProps = Partial<components['schemas']['ProductGalleryProps']>;

export type { Images360Response } from '../../lib/types';
