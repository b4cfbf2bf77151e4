// A labelled form field with its validation message tied to it
// (aria-invalid, aria-describedby), for the account and checkout forms: a
// text box (`Field`) or a choice from a list (`SelectField`).
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
  const described = describedBy(id, hint, error);
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
      <Notes id={id} hint={hint} error={error} />
    </div>
  );
}

/** The ids a field's `aria-describedby` names: its hint's and its message's. */
function describedBy(id: string, hint?: string, error?: string): string | undefined {
  return [hint ? `${id}-h` : '', error ? `${id}-e` : ''].filter(Boolean).join(' ') || undefined;
}

/** A field's hint and validation message, under it. */
function Notes({ id, hint, error }: { id: string; hint?: string; error?: string }) {
  return (
    <>
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
    </>
  );
}

export interface SelectFieldProps {
  label: string;
  name: string;
  value: string;
  /** What can be chosen. */
  options: string[];
  /** The first, empty choice: "Choose a district". */
  placeholder: string;
  error?: string;
  hint?: string;
  onChange: (value: string) => void;
}

/** A choice from a list, labelled and with its message, as [`Field`]. A value not in the list is kept as a choice. */
export function SelectField({ label, name, value, options, placeholder, error, hint, onChange }: SelectFieldProps) {
  const id = useId();
  const described = describedBy(id, hint, error);
  const choices = value && !options.includes(value) ? [value, ...options] : options;
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} value={value} aria-invalid={error ? true : undefined} aria-describedby={described} onChange={(e) => onChange(e.target.value)}>
        <option value="">{placeholder}</option>
        {choices.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
      <Notes id={id} hint={hint} error={error} />
    </div>
  );
}

/** The first message of each field in an API error's `errors`. */
export function fieldErrors(errors: Record<string, string[] | string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(errors ?? {})) out[k] = Array.isArray(v) ? (v[0] ?? '') : String(v);
  return out;
}
