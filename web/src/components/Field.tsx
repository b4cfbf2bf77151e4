// A labelled form field with its validation message tied to it
// (aria-invalid, aria-describedby), for the account and checkout forms.
import { useId, type InputHTMLAttributes } from 'react';
import styles from './Field.module.css';

export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: string;
  name: string;
  value: string;
  error?: string;
  hint?: string;
  onChange: (value: string) => void;
}

export function Field({ label, name, value, error, hint, onChange, ...rest }: FieldProps) {
  const id = useId();
  const described = [hint ? `${id}-h` : '', error ? `${id}-e` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        onChange={(e) => onChange(e.target.value)}
        {...rest}
      />
      {hint && (
        <small id={`${id}-h`} className={styles.hint}>
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-e`} className={styles.error}>
          {error}
        </small>
      )}
    </div>
  );
}

/** The first message of each field in an API error's `errors`. */
export function fieldErrors(errors: Record<string, string[] | string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(errors ?? {})) out[k] = Array.isArray(v) ? (v[0] ?? '') : String(v);
  return out;
}
