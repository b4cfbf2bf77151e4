// Money as the shop shows it: whole taka with the taka sign and thousands
// separators grouped the international way (৳1,25,000 is the Indian style;
// the shop's pages use ৳125,000, matching the generator's Rust formatter).

/** Formats whole taka, e.g. 125000 → "৳125,000". */
export function formatTaka(amount: number): string {
  const whole = Math.round(amount);
  const sign = whole < 0 ? '-' : '';
  const digits = Math.abs(whole).toString();
  return `${sign}৳${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}
