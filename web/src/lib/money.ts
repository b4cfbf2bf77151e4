// Money as the shop shows it: whole taka with the taka sign, grouped the
// South Asian way (lakh and crore): the last three digits, then pairs,
// ৳1,82,500 and ৳1,25,00,000. The generator's and the origin's Rust side use
// the same rule (catalog::pricing::taka).

/** Groups the digits of a non-negative whole number: "182500" → "1,82,500". */
function lakhGrouped(digits: string): string {
  if (digits.length <= 3) return digits;
  const head = digits.slice(0, -3);
  const pairs = head.replace(/\B(?=(\d{2})+(?!\d))/g, ',');
  return `${pairs},${digits.slice(-3)}`;
}

/** Formats whole taka, e.g. 182500 → "৳1,82,500". */
export function formatTaka(amount: number): string {
  const whole = Math.round(amount);
  const sign = whole < 0 ? '-' : '';
  return `${sign}৳${lakhGrouped(Math.abs(whole).toString())}`;
}
