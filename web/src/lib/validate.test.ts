import { checkEmail, checkPhone, normalisePhone, only } from './validate';

describe('form checks', () => {
  it('accepts Bangladeshi mobile numbers as people type them', () => {
    expect(normalisePhone('+880 1712-345678')).toBe('01712345678');
    expect(normalisePhone('8801712345678')).toBe('01712345678');
    expect(checkPhone('01712345678')).toBe('');
    expect(checkPhone('1712345678')).toMatch(/11-digit/);
    expect(checkPhone('')).toBe('Enter your mobile number.');
  });

  it('checks emails (passwords: lib/password.ts)', () => {
    expect(checkEmail('rina@example.com')).toBe('');
    expect(checkEmail('rina@')).toMatch(/like name@example.com/);
    expect(only({ a: '', b: 'x' })).toEqual({ b: 'x' });
  });
});
