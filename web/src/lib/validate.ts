// Form checks shared by the account and checkout forms, with messages a
// shopper can act on. The API checks again; these only save a round trip.

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A Bangladeshi mobile number as the shop stores it (11 digits, 01…), from what was typed (+880, spaces, dashes). */
export function normalisePhone(typed: string): string {
  let d = typed.replace(/[\s-]/g, '');
  if (d.startsWith('+88')) d = d.slice(3);
  else if (d.startsWith('88') && d.length === 13) d = d.slice(2);
  return d;
}

export function checkPhone(typed: string): string {
  if (!typed.trim()) return 'Enter your mobile number.';
  return /^01\d{9}$/.test(normalisePhone(typed)) ? '' : 'Enter an 11-digit mobile number starting with 01, like 01712345678.';
}

/** The emergency number's own messages (not the mobile field's): present, 11 digits, and not the mobile number itself, as the origin asks at checkout and registration. */
export function checkEmergencyPhone(typed: string, mobile: string): string {
  if (!typed.trim()) return 'Enter an emergency number: another number we can call if we cannot reach you.';
  if (!/^01\d{9}$/.test(normalisePhone(typed))) return 'Enter the emergency number as 11 digits starting with 01, like 01812345678.';
  return normalisePhone(typed) === normalisePhone(mobile) ? 'Use a different number from the mobile number above.' : '';
}

export function checkEmail(typed: string): string {
  if (!typed.trim()) return 'Enter your email address.';
  return EMAIL.test(typed.trim()) ? '' : 'Enter an email address like name@example.com.';
}

/** Drops empty messages. */
export function only(errors: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).filter(([, v]) => v));
}
