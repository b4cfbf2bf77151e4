// Create an account (/user/registration), with the original's field names
// (ORIGINAL-API.md §1): every field checked here with a message beside it,
// then by the API, whose field messages land beside the same fields. A new
// account is signed in at once and goes to the home page.
import { useState, type FormEvent } from 'react';
import { Field, fieldErrors } from '../../components/Field';
import forms from '../../components/forms.module.css';
import { ApiError, apiPost, setAuthToken } from '../../lib/api';
import { emit } from '../../lib/events';
import { navigate } from '../../lib/navigate';
import { WELCOME_URL } from '../account-page/AccountPage';
import { PASSWORD_HINT, checkConfirmation, checkNewPassword } from '../../lib/password';
import { checkEmail, checkEmergencyPhone, checkPhone, normalisePhone, only } from '../../lib/validate';
import type { RegisterResponse } from './types';

type FieldName = 'name' | 'email' | 'telephone' | 'emergency_contact_number' | 'password' | 'password_confirmation';

export function RegistrationPage() {
  const [v, setV] = useState<Record<FieldName, string>>({
    name: '',
    email: '',
    telephone: '',
    emergency_contact_number: '',
    password: '',
    password_confirmation: '',
  });
  const [district, setDistrict] = useState('Dhaka');
  const [agree, setAgree] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const set = (k: FieldName) => (value: string) => setV((old) => ({ ...old, [k]: value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = only({
      name: v.name.trim() ? '' : 'Enter your name.',
      email: checkEmail(v.email),
      telephone: checkPhone(v.telephone),
      emergency_contact_number: checkEmergencyPhone(v.emergency_contact_number, v.telephone),
      password: checkNewPassword(v.password),
      password_confirmation: checkConfirmation(v.password, v.password_confirmation),
      agree: agree ? '' : 'Please accept the terms to create an account.',
    });
    setErrors(found);
    setError(Object.keys(found).length ? 'Please correct the fields marked below.' : '');
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const r = await apiPost<RegisterResponse>('/api/auth/register', {
        name: v.name.trim(),
        email: v.email.trim(),
        telephone: normalisePhone(v.telephone),
        emergency_contact_number: normalisePhone(v.emergency_contact_number),
        district,
        password: v.password,
        password_confirmation: v.password_confirmation,
        agree: true,
        device_name: 'web_browser',
      });
      // A refusal is an error status (ApiError with the fields' errors), never a 200.
      if (r.token) {
        setAuthToken(r.token);
        emit('cart:changed', {});
        navigate(WELCOME_URL);
      } else navigate('/user/login');
    } catch (err) {
      if (err instanceof ApiError) {
        setErrors(fieldErrors(err.errors));
        setError(err.message);
      } else setError('The account could not be created. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className={forms.form} onSubmit={(e) => void submit(e)} noValidate>
      {error && (
        <p className={forms.error} role="alert">
          {error}
        </p>
      )}
      <Field label="Full name" name="name" autoComplete="name" required value={v.name} error={errors.name} onChange={set('name')} />
      <Field label="Email" name="email" type="email" autoComplete="email" required value={v.email} error={errors.email} onChange={set('email')} />
      <Field
        label="Mobile number"
        name="telephone"
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        required
        hint="11 digits, like 01712345678"
        value={v.telephone}
        error={errors.telephone}
        onChange={set('telephone')}
      />
      <Field
        label="Emergency contact number"
        name="emergency_contact_number"
        type="tel"
        inputMode="tel"
        required
        value={v.emergency_contact_number}
        error={errors.emergency_contact_number}
        onChange={set('emergency_contact_number')}
      />
      <fieldset className={forms.row}>
        <legend>Where do you live?</legend>
        {['Dhaka', 'Outside Dhaka'].map((d) => (
          <label key={d}>
            <input type="radio" name="district" value={d} checked={district === d} onChange={() => setDistrict(d)} /> {d}
          </label>
        ))}
      </fieldset>
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint={PASSWORD_HINT}
        value={v.password}
        error={errors.password}
        onChange={set('password')}
      />
      <Field
        label="Confirm password"
        name="password_confirmation"
        type="password"
        autoComplete="new-password"
        required
        value={v.password_confirmation}
        error={errors.password_confirmation}
        onChange={set('password_confirmation')}
      />
      <div>
        <label className={forms.row}>
          <input
            type="checkbox"
            name="agree"
            checked={agree}
            aria-invalid={errors.agree ? true : undefined}
            aria-describedby={errors.agree ? 'agree-error' : undefined}
            onChange={(e) => setAgree(e.target.checked)}
          />{' '}
          I accept the terms and conditions
        </label>
        {errors.agree && (
          <small id="agree-error" className={forms.error}>
            {errors.agree}
          </small>
        )}
      </div>
      <button className="btn" disabled={busy}>
        {busy ? 'Creating your account…' : 'Create account'}
      </button>
      <p className={forms.links}>
        <a href="/user/login">I already have an account</a>
      </p>
    </form>
  );
}
