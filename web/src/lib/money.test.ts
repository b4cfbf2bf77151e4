import { formatTaka } from './money';

describe('formatTaka', () => {
  it('groups thousands and shows the taka sign', () => {
    expect(formatTaka(125000)).toBe('৳125,000');
    expect(formatTaka(900)).toBe('৳900');
    expect(formatTaka(0)).toBe('৳0');
  });

  it('rounds to whole taka and keeps the sign of refunds', () => {
    expect(formatTaka(1999.6)).toBe('৳2,000');
    expect(formatTaka(-1500)).toBe('-৳1,500');
  });
});
