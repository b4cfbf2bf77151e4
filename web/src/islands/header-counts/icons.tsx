// The header icons, drawn from the page's inline SVG sprite (generator's
// header.html: #i-user, #i-cmp, #i-heart, #i-cart), as in the fallback.
export function Icon({ id }: { id: 'user' | 'cmp' | 'heart' | 'cart' }) {
  return (
    <svg className="ic" aria-hidden="true">
      <use href={`#i-${id}`} />
    </svg>
  );
}
