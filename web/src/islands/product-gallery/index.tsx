import { takeOver } from '../../lib/island';
import { ProductGallery } from './ProductGallery';
import type { ProductGalleryProps } from './types';

/** Takes over the product's image area, keeping the first image's size (its width and height attributes). */
export default function mount(el: HTMLElement, props: ProductGalleryProps) {
  // Interior galleries use this island's name for a plain picture grid: without images, the fallback stays.
  if (!props.images?.length) return null;
  const first = el.querySelector('img');
  const size: [number, number] = [Number(first?.getAttribute('width')) || 800, Number(first?.getAttribute('height')) || 800];
  const seoUrl = props.seo_url ?? decodeURIComponent(location.pathname.replace(/^\/product\//, '').replace(/\/$/, ''));
  const title = props.title ?? first?.getAttribute('alt') ?? '';
  return takeOver(el, () => <ProductGallery {...props} title={title} seoUrl={seoUrl} size={size} />);
}
