// The shop's one password rule, for every form that sets a password
// (registration, change password, reset password): the origin's, in
// origin/src/plumbing/validate.rs (PASSWORD_LEN and check_new_password), which
// registration, change-password and reset-password all apply, and which the
// API document states on each of those bodies ("8-128 characters").
// password.test.ts reads both and fails when they and this file part.

/** Fewest characters in a password. */
export const PASSWORD_MIN = 8;
/** Most characters in a password. */
export const PASSWORD_MAX = 128;
/** The rule, as the form shows it under the field and the origin words its refusal. */
export const PASSWORD_RULE = `A password is ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`;
/** The hint under every new-password field. */
export const PASSWORD_HINT = `${PASSWORD_MIN} to ${PASSWORD_MAX} characters`;
/** When the confirmation does not repeat the password. */
export const PASSWORDS_DIFFER = 'The two passwords differ.';

/** The message for a new password that breaks the rule; '' when it keeps it. Counts characters as the origin does (code points). */
export function checkNewPassword(password: string): string {
  if (!password) return 'Enter a password.';
  const n = [...password].length;
  return n < PASSWORD_MIN || n > PASSWORD_MAX ? PASSWORD_RULE : '';
}

/** The message for a confirmation that does not repeat the password; '' when it does. */
export function checkConfirmation(password: string, confirmation: string): string {
  return confirmation === password ? '' : PASSWORDS_DIFFER;
}
