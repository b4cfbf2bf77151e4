// Forgot password (/user/forgot_password): an email, and the API's answer
// ("We have emailed your password reset link!") or its refusal, shown.
import { useState, type FormEvent } from 'react';
import { Field } from '../../components/Field';
import forms from '../../components/forms.module.css';
import { ApiError, apiPost } from '../../lib/api';
import { checkEmail } from '../../lib/validate';
import type { MessageResponse } from './types';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState('');
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = checkEmail(email);
    setFieldError(problem);
    setResult(null);
    if (problem) return;
    setBusy(true);
    try {
      const r = await apiPost<MessageResponse>('/api/user/forgot-password-send-link', { email: email.trim() });
      setResult({ ok: true, text: r.message || 'We have emailed your password reset link!' });
    } catch (err) {
      const field = err instanceof ApiError ? err.errors.email?.[0] : undefined;
      if (field) setFieldError(field);
      else setResult({ ok: false, text: err instanceof ApiError ? err.message : 'The link could not be sent. Please try again.' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className={forms.form} onSubmit={(e) => void submit(e)} noValidate>
      <p>Enter the email of your account and we will send you a link to choose a new password.</p>
      <Field label="Email" name="email" type="email" autoComplete="email" required value={email} error={fieldError} onChange={setEmail} />
      <div role="status">{result?.ok && <p className={forms.ok}>{result.text}</p>}</div>
      {result && !result.ok && (
        <p className={forms.error} role="alert">
          {result.text}
        </p>
      )}
      <button className="btn" disabled={busy}>
        Send the link
      </button>
      <p className={forms.links}>
        <a href="/user/login">Back to sign in</a>
      </p>
    </form>
  );
}
