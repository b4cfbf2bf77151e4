// The shared modal dialog (SPEC.md §2, §4, §9): an optional title, a close
// button and a backdrop; a close asked for within 500 ms of opening is
// ignored (a stray second click or tap must not dismiss it); while open the
// body carries `modal-open`, focus stays inside, Escape closes, and focus
// returns where it was. The parent opens it by rendering it and closes it by
// no longer rendering it.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { emit } from '../lib/events';
import styles from './Modal.module.css';

/** Closes asked for sooner than this after opening are ignored (SPEC.md §9). */
export const CLOSE_GUARD_MS = 500;

const FOCUSABLE = 'a[href],button:not([disabled]),input:not([disabled]),select:not([disabled]),textarea:not([disabled]),[tabindex]:not([tabindex="-1"])';

/** Flags the body while at least one modal (or drawer) is open. */
export function flagBody(delta: 1 | -1): void {
  const body = document.body;
  const n = Math.max(0, (Number(body.dataset.modals) || 0) + delta);
  body.dataset.modals = String(n);
  body.classList.toggle('modal-open', n > 0);
}

export interface ModalProps {
  /** Shown as the dialog's heading and accessible name. */
  title?: string;
  /** The accessible name when there is no title. */
  label?: string;
  onClose: () => void;
  children?: ReactNode;
}

export function Modal({ title, label, onClose, children }: ModalProps) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  const openedAt = useRef(Date.now());
  const close = useRef(() => {});
  close.current = () => {
    if (Date.now() - openedAt.current >= CLOSE_GUARD_MS) onClose();
  };

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    openedAt.current = Date.now();
    flagBody(1);
    emit('modal:open', {});
    (box.current?.querySelector<HTMLElement>(FOCUSABLE) ?? box.current)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        close.current();
      } else if (e.key === 'Tab' && box.current) {
        const all = Array.from(box.current.querySelectorAll<HTMLElement>(FOCUSABLE));
        if (!all.length) return;
        const first = all[0];
        const last = all[all.length - 1];
        const at = document.activeElement;
        if (e.shiftKey && (at === first || !box.current.contains(at))) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && (at === last || !box.current.contains(at))) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    // Focus that escapes (a click on the page behind) comes back.
    const onFocusIn = (e: FocusEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) box.current.focus();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', onFocusIn);
      flagBody(-1);
      emit('modal:close', {});
      before?.focus?.();
    };
  }, []);

  return createPortal(
    <div
      className={styles.backdrop}
      onClick={(e) => {
        if (e.target === e.currentTarget) close.current();
      }}
    >
      <div
        ref={box}
        className={styles.box}
        role="dialog"
        aria-modal="true"
        aria-labelledby={title ? titleId : undefined}
        aria-label={title ? undefined : label}
        tabIndex={-1}
      >
        <button type="button" className={styles.close} aria-label="Close" onClick={() => close.current()}>
          ×
        </button>
        {title && (
          <h2 id={titleId} className={styles.title}>
            {title}
          </h2>
        )}
        {children}
      </div>
    </div>,
    document.body,
  );
}
