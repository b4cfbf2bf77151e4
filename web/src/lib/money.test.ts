import { formatTaka } from './money';

describe('formatTaka', () => {
  it('groups lakh and crore and shows the taka sign', () => {
    expect(formatTaka(0)).toBe('৳0');
    expect(formatTaka(900)).toBe('৳900');
    expect(formatTaka(1000)).toBe('৳1,000');
    expect(formatTaka(99999)).toBe('৳99,999');
    expect(formatTaka(100000)).toBe('৳1,00,000');
    expect(formatTaka(182500)).toBe('৳1,82,500');
    expect(formatTaka(1234567)).toBe('৳12,34,567');
    expect(formatTaka(12500000)).toBe('৳1,25,00,000');
    expect(formatTaka(1234567890)).toBe('৳1,23,45,67,890');
  });

  it('rounds to whole taka and keeps the sign of refunds', () => {
    expect(formatTaka(1999.6)).toBe('৳2,000');
    expect(formatTaka(-1500)).toBe('-৳1,500');
    expect(formatTaka(-182500)).toBe('-৳1,82,500');
  });
});
