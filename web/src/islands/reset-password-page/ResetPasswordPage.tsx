// Choose a new password (/user/reset_password?token=…&email=…, the emailed
// link): the new password twice (the shop's one rule, lib/password.ts), then the API's answer, with a way to sign in.
import { useState, type FormEvent } from 'react';
import { Field, fieldErrors } from '../../components/Field';
import forms from '../../components/forms.module.css';
import { ApiError, apiPost } from '../../lib/api';
import { PASSWORD_HINT, checkConfirmation, checkNewPassword } from '../../lib/password';
import { only } from '../../lib/validate';
import type { MessageResponse } from './types';

export function ResetPasswordPage({ search = location.search }: { search?: string }) {
  const q = new URLSearchParams(search);
  const token = q.get('token') ?? '';
  const [email, setEmail] = useState(q.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  if (!token)
    return (
      <p className={forms.error} role="alert">
        This link is not complete. Please use the link from the email again, or <a href="/user/forgot_password">ask for a new one</a>.
      </p>
    );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = only({
      email: email.trim() ? '' : 'Enter your email address.',
      password: checkNewPassword(password),
      password_confirmation: checkConfirmation(password, confirm),
    });
    setErrors(found);
    setResult(null);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const r = await apiPost<MessageResponse>('/api/user/reset-password', { token, email: email.trim(), password, password_confirmation: confirm });
      setResult({ ok: true, text: r.message || 'Your password has been reset!' });
    } catch (err) {
      if (err instanceof ApiError) {
        setErrors(fieldErrors(err.errors));
        setResult({ ok: false, text: err.message });
      } else setResult({ ok: false, text: 'The password could not be changed. Please try again.' });
    } finally {
      setBusy(false);
    }
  };

  if (result?.ok)
    return (
      <p className={forms.ok} role="status">
        {result.text} <a href="/user/login">Sign in</a>
      </p>
    );
  return (
    <form className={forms.form} onSubmit={(e) => void submit(e)} noValidate>
      {result && (
        <p className={forms.error} role="alert">
          {result.text}
        </p>
      )}
      <Field label="Email" name="email" type="email" autoComplete="email" required value={email} error={errors.email} onChange={setEmail} />
      <Field
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint={PASSWORD_HINT}
        value={password}
        error={errors.password}
        onChange={setPassword}
      />
      <Field
        label="Confirm new password"
        name="password_confirmation"
        type="password"
        autoComplete="new-password"
        required
        value={confirm}
        error={errors.password_confirmation}
        onChange={setConfirm}
      />
      <button className="btn" disabled={busy}>
        Save the new password
      </button>
    </form>
  );
}
