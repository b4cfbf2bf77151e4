// Responsive image widths (SPEC.md §9): a requested width rounds up to 25 or
// 50 for small images, else to a multiple of 100. The generator
// (`generator/src/format.rs`, `responsive_width`) and the origin's image
// variants use the same rule, so every width an island asks for is one the
// origin makes and the edge has cached.

/** Rounds a wanted width (CSS pixels × device pixel ratio) up by the width rule. */
export function responsiveWidth(width: number): number {
  const w = Math.ceil(Math.max(0, width));
  if (w <= 25) return 25;
  if (w <= 50) return 50;
  return Math.ceil(w / 100) * 100;
}

/** The URL of a stored image (`storage/uploads/...`) at a rounded width, and a JPEG quality when given (the 360 frames use 35). */
export function imageUrl(path: string, width: number, quality?: number): string {
  if (/^https?:\/\//.test(path)) return path;
  return `/${path.replace(/^\/+/, '')}?w=${responsiveWidth(width)}${quality ? `&q=${quality}` : ''}`;
}

/** A `srcset` of `path` at each width, rounded and without duplicates. */
export function srcset(path: string, widths: number[]): string {
  const seen = [...new Set(widths.map(responsiveWidth))];
  return seen.map((w) => `${imageUrl(path, w)} ${w}w`).join(',');
}
