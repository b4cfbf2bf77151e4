import { takeOver } from '../../lib/island';
import { CategoryFilters } from './CategoryFilters';
import type { CategoryFiltersProps } from './types';

/**
 * The element whose cards and page links the island redraws: `#listing`, or a
 * wrapper put around the grid (`ul.g` or the "Nothing Founds" line) and the
 * page links (`nav.pages`) that follow the island.
 */
function listingOf(el: HTMLElement): HTMLElement | null {
  const byId = document.getElementById('listing');
  if (byId) {
    Array.from(byId.children).forEach((c) => c.setAttribute('data-static', ''));
    return byId;
  }
  const parts: Element[] = [];
  for (let n = el.nextElementSibling; n; n = n.nextElementSibling) {
    if (n.matches('script[data-island-props]')) continue;
    if (n.matches('ul.g, p') && !parts.length) parts.push(n);
    else if (n.matches('nav.pages') && parts.length) {
      parts.push(n);
      break;
    } else if (parts.length) break;
  }
  if (!parts.length) return null;
  const wrap = document.createElement('div');
  wrap.id = 'listing';
  parts[0].before(wrap);
  parts.forEach((p) => p.setAttribute('data-static', ''));
  wrap.append(...parts);
  return wrap;
}

/** Takes over the category's filters; the grid and page links follow from the API once the shopper filters. */
export default function mount(el: HTMLElement, props: CategoryFiltersProps) {
  const listing = listingOf(el);
  return takeOver(el, () => (
    <CategoryFilters
      seoUrl={props.seo_url}
      groups={props.groups ?? []}
      priceLow={props.price_low ?? null}
      priceHigh={props.price_high ?? null}
      listing={listing}
    />
  ));
}
