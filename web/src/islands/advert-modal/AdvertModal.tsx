// The pre-load advert (SPEC.md §2, §4): widget 5 opens as a modal on load
// (the generator writes the island only while the widget is active), and
// closes on its close button, an outside click or Escape (with the modal's
// 500 ms rule). The original server sent the widget once per
// visitor per hour; pages here are static, so the browser keeps that rule:
// shown at most once an hour. An advert of a flash sale carries the sale's
// end (`ends_at`): a page written before the end does not open it after.
import { useState } from 'react';
import { Modal } from '../../components/Modal';
import styles from './AdvertModal.module.css';
import type { AdvertModalProps } from './types';

export const SEEN_KEY = 'advert-seen-at';
export const AGAIN_AFTER_MS = 60 * 60 * 1000;

/** Whether to open the advert now, and if so record that it was shown. */
export function shouldShow(props: AdvertModalProps, now = Date.now()): boolean {
  if (!props.description) return false;
  if (props.ends_at != null && now >= props.ends_at * 1000) return false;
  try {
    if (now - (Number(localStorage.getItem(SEEN_KEY)) || 0) < AGAIN_AFTER_MS) return false;
    localStorage.setItem(SEEN_KEY, String(now));
  } catch {
    // No storage: show it (once per page).
  }
  return true;
}

export function AdvertModal(props: AdvertModalProps) {
  const [open, setOpen] = useState(() => shouldShow(props));
  if (!open) return null;
  return (
    <Modal label="Offer" onClose={() => setOpen(false)}>
      <div className={styles.body} dangerouslySetInnerHTML={{ __html: props.description ?? '' }} />
    </Modal>
  );
}
