// The contact form (/page/contact): name, mobile or e-mail, message, checked
// here as the API checks them, sent as JSON to `POST /api/common/contact`;
// the API's field errors show beside their fields, any other refusal (too
// many messages: 429) above the button with the shop's phone and e-mail.
// Without JavaScript the same form posts itself and the API sends the
// browser back to the page's #sent or #not-sent note (`?sent=1` shows the
// confirmation here too).
import { useId, useState, type FormEvent } from 'react';
import { Field } from '../../components/Field';
import fieldStyles from '../../components/Field.module.css';
import forms from '../../components/forms.module.css';
import { ApiError, apiPost } from '../../lib/api';
import { checkEmail, checkPhone } from '../../lib/validate';
import styles from './ContactForm.module.css';
import type { MessageResponse } from './types';

export const NAME_LEN = [2, 80] as const;
export const MESSAGE_LEN = [10, 2000] as const;

type Values = Record<'name' | 'contact' | 'message', string>;
type Link = { href: string; text: string };

/** Each field's problem as the API words it (empty when fine). */
export function check(v: Values): Partial<Values> {
  const out: Partial<Values> = {};
  const name = v.name.trim().length;
  if (name < NAME_LEN[0] || name > NAME_LEN[1]) out.name = `Please write your name (${NAME_LEN[0]}-${NAME_LEN[1]} characters).`;
  const contact = v.contact.trim();
  if (!contact) out.contact = 'Please give a mobile number or an e-mail address so that we can answer.';
  else if (contact.includes('@') ? checkEmail(contact) : checkPhone(contact))
    out.contact = 'That is neither a mobile number (01XXXXXXXXX) nor an e-mail address.';
  const message = v.message.trim().length;
  if (message < MESSAGE_LEN[0] || message > MESSAGE_LEN[1]) out.message = `Please write a message of ${MESSAGE_LEN[0]}-${MESSAGE_LEN[1]} characters.`;
  return out;
}

export function ContactForm({ initial = {}, sent = false, phone, email }: { initial?: Record<string, string>; sent?: boolean; phone?: Link; email?: Link }) {
  const [v, setV] = useState<Values>({ name: initial.name ?? '', contact: initial.contact ?? '', message: initial.message ?? '' });
  const [errors, setErrors] = useState<Partial<Values>>({});
  const [done, setDone] = useState(sent ? 'Thank you: your message has reached us. We answer within a day.' : '');
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const messageId = useId();
  const set = (k: keyof Values) => (value: string) => setV((now) => ({ ...now, [k]: value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problems = check(v);
    setErrors(problems);
    setFailure('');
    if (Object.keys(problems).length) return;
    setBusy(true);
    try {
      const r = await apiPost<MessageResponse>('/api/common/contact', { name: v.name.trim(), contact: v.contact.trim(), message: v.message.trim() });
      setDone(r.message || 'Thank you: your message has reached us.');
    } catch (err) {
      const fields = err instanceof ApiError ? err.errors : {};
      const named: Partial<Values> = {};
      for (const k of ['name', 'contact', 'message'] as const) if (fields[k]?.[0]) named[k] = fields[k][0];
      setErrors(named);
      if (!Object.keys(named).length) setFailure(err instanceof ApiError ? err.message : 'Your message could not be sent. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  if (done)
    return (
      <div role="status" className={styles.done}>
        <p>{done}</p>
        <button
          type="button"
          className="btn alt"
          onClick={() => {
            setDone('');
            setV({ name: v.name, contact: v.contact, message: '' });
          }}
        >
          Write another message
        </button>
      </div>
    );

  return (
    <form className={`${forms.form} ${styles.form}`} onSubmit={(e) => void submit(e)} noValidate>
      <Field label="Your name" name="name" autoComplete="name" maxLength={NAME_LEN[1]} required value={v.name} error={errors.name} onChange={set('name')} />
      <Field
        label="Mobile or e-mail"
        name="contact"
        autoComplete="email"
        maxLength={254}
        required
        placeholder="01XXXXXXXXX or you@example.com"
        value={v.contact}
        error={errors.contact}
        onChange={set('contact')}
      />
      <div className={fieldStyles.field}>
        <label htmlFor={messageId}>Message</label>
        <textarea
          id={messageId}
          name="message"
          rows={5}
          maxLength={MESSAGE_LEN[1]}
          required
          value={v.message}
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={errors.message ? `${messageId}-e` : undefined}
          onChange={(e) => set('message')(e.target.value)}
        />
        {errors.message && (
          <small id={`${messageId}-e`} className={fieldStyles.error}>
            {errors.message}
          </small>
        )}
      </div>
      {failure && (
        <p className={forms.error} role="alert">
          {failure}
          {phone && (
            <>
              {' '}
              You can also call <a href={phone.href}>{phone.text}</a>
              {email && (
                <>
                  {' '}
                  or write to <a href={email.href}>{email.text}</a>
                </>
              )}
              .
            </>
          )}
        </p>
      )}
      <button className="btn" disabled={busy}>
        {busy ? 'Sending…' : 'Send message'}
      </button>
    </form>
  );
}
