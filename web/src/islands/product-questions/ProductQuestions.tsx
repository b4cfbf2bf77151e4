// The question and comment forms of a product page (issue 4). The generator
// writes the questions and comments themselves; this island takes over only
// its last line ("Sign in to ask a question or comment."). A signed-in
// shopper gets "Ask a question" (and "Write a comment" where comments are
// on), each opening a labelled form posted to `product/question-store` or
// `product/comment-store`; a guest keeps the sign-in link. Questions wait for
// the shop's answer before they are shown, and the thanks say so.
import { useId, useState, type FormEvent } from 'react';
import { ApiError, apiPost, authToken, errorText } from '../../lib/api';
import { loginUrl, navigate } from '../../lib/navigate';
import styles from './ProductQuestions.module.css';

type Kind = 'question' | 'comment';
export const MAX_LENGTH = 1000;

const TEXT: Record<Kind, { open: string; label: string; send: string; path: string; field: string; thanks: string }> = {
  question: {
    open: 'Ask a question',
    label: 'Your question',
    send: 'Send question',
    path: '/api/product/question-store',
    field: 'description',
    thanks: 'Thank you. Your question will appear here once the shop has answered it.',
  },
  comment: {
    open: 'Write a comment',
    label: 'Your comment',
    send: 'Send comment',
    path: '/api/product/comment-store',
    field: 'comment',
    thanks: 'Thank you for your comment. It will appear here once it has been checked.',
  },
};

function TalkForm({ kind, productId, seoUrl, onDone }: { kind: Kind; productId: number; seoUrl: string; onDone: (msg: string) => void }) {
  const t = TEXT[kind];
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = text.trim();
    if (!value) {
      setError(`Please write your ${kind} first.`);
      return;
    }
    setBusy(true);
    setError('');
    try {
      await apiPost(t.path, { seo_url: seoUrl, product_id: productId, [t.field]: value });
      onDone(t.thanks);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        navigate(loginUrl());
        return;
      }
      const field = err instanceof ApiError ? err.errors[t.field]?.[0] : undefined;
      setError(field ?? errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
      <label htmlFor={`${id}-t`}>{t.label}</label>
      <textarea
        id={`${id}-t`}
        value={text}
        maxLength={MAX_LENGTH}
        rows={3}
        required
        aria-invalid={!!error}
        aria-describedby={error ? `${id}-e` : undefined}
        onChange={(e) => setText(e.target.value)}
        autoFocus
      />
      {error && (
        <p id={`${id}-e`} className={styles.error} role="alert">
          {error}
        </p>
      )}
      <button className="btn" disabled={busy}>
        {t.send}
      </button>
    </form>
  );
}

export function ProductQuestions({
  productId,
  enableComment,
  seoUrl,
  signedIn = !!authToken(),
}: {
  productId: number;
  enableComment: boolean;
  seoUrl: string;
  signedIn?: boolean;
}) {
  const [open, setOpen] = useState<Kind | null>(null);
  const [thanks, setThanks] = useState('');
  if (!signedIn) {
    return (
      <>
        <a href="/user/login">Sign in</a> to ask a question{enableComment ? ' or comment' : ''}.
      </>
    );
  }
  const kinds: Kind[] = enableComment ? ['question', 'comment'] : ['question'];
  return (
    <>
      {kinds.map((k, i) => (
        <span key={k}>
          {i > 0 && ' · '}
          <button
            type="button"
            className={styles.link}
            aria-expanded={open === k}
            onClick={() => {
              setOpen(open === k ? null : k);
              setThanks('');
            }}
          >
            {TEXT[k].open}
          </button>
        </span>
      ))}
      <span role="status" className={styles.thanks}>
        {thanks}
      </span>
      {open && (
        <TalkForm
          key={open}
          kind={open}
          productId={productId}
          seoUrl={seoUrl}
          onDone={(msg) => {
            setOpen(null);
            setThanks(msg);
          }}
        />
      )}
    </>
  );
}
