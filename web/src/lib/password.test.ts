import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PASSWORD_MAX, PASSWORD_MIN, PASSWORD_RULE, PASSWORDS_DIFFER, checkConfirmation, checkNewPassword } from './password';

const read = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');

describe('the password rule', () => {
  it('is the origin’s: its bounds and its words', () => {
    const rust = read('../../../origin/src/plumbing/validate.rs');
    const bounds = /pub const PASSWORD_LEN: \(usize, usize\) = \((\d+), (\d+)\);/.exec(rust);
    expect(bounds?.slice(1).map(Number)).toEqual([PASSWORD_MIN, PASSWORD_MAX]);
    // check_new_password's message, "A password is {} to {} characters.", with the bounds put in.
    expect(rust).toContain('"A password is {} to {} characters."');
    expect(PASSWORD_RULE).toBe(`A password is ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`);
    expect(rust).toContain(JSON.stringify(PASSWORDS_DIFFER));
  });

  it('is the one the API document states for registration, change and reset', () => {
    const lines = read('../generated/api.ts').split('\n');
    // The description of each body field named `password`.
    const stated = lines.filter((line, i) => /^\s*password\??:/.test(lines[i + 1] ?? '') && /\d+-\d+ characters/.test(line));
    expect(stated.length).toBeGreaterThanOrEqual(3);
    for (const s of stated) expect(s).toContain(`${PASSWORD_MIN}-${PASSWORD_MAX} characters`);
  });

  it('counts characters as the origin does', () => {
    expect(checkNewPassword('')).toBe('Enter a password.');
    expect(checkNewPassword('x'.repeat(PASSWORD_MIN - 1))).toBe(PASSWORD_RULE);
    expect(checkNewPassword('x'.repeat(PASSWORD_MIN))).toBe('');
    expect(checkNewPassword('x'.repeat(PASSWORD_MAX))).toBe('');
    expect(checkNewPassword('x'.repeat(PASSWORD_MAX + 1))).toBe(PASSWORD_RULE);
    // An emoji is one character (two UTF-16 units), as Rust's chars().count() has it.
    expect(checkNewPassword('😀'.repeat(PASSWORD_MIN))).toBe('');
    expect(checkNewPassword('😀'.repeat(PASSWORD_MIN - 1))).toBe(PASSWORD_RULE);
    expect(checkConfirmation('abcdefgh', 'abcdefgh')).toBe('');
    expect(checkConfirmation('abcdefgh', 'abcdefgi')).toBe(PASSWORDS_DIFFER);
  });
});
