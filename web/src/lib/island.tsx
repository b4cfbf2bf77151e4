// Taking over an island's fallback with React (web/ISLANDS.md): `createRoot`
// (Rust wrote the fallback, so there is nothing to hydrate), rendered
// synchronously so the visitor's typed text, focus, selection and scroll
// position carry over without a visible jump. If the island throws while
// rendering, the fallback comes back and the error is reported.
import type { ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import '../styles/global.css';

/** What the visitor had done to the fallback before the island took over. */
export interface Adopted {
  /** Values of the fallback's named fields (typed text, choices). */
  values: Record<string, string>;
  /** The name (or id) of the focused field, with its text selection. */
  focus: { key: string; start: number | null; end: number | null } | null;
  /** Scroll offsets of the island element itself. */
  scroll: [number, number];
}

let roots = 0;

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

const keyOf = (f: Element) => f.getAttribute('name') || f.id;

/** Reads the fallback's live state. */
export function adopt(el: HTMLElement): Adopted {
  const values: Record<string, string> = {};
  el.querySelectorAll<Field>('input,textarea,select').forEach((f) => {
    const key = keyOf(f);
    if (!key || (f instanceof HTMLInputElement && (f.type === 'hidden' || ((f.type === 'checkbox' || f.type === 'radio') && !f.checked)))) return;
    values[key] = f.value;
  });
  const active = document.activeElement;
  let focus: Adopted['focus'] = null;
  if (active && active !== el && el.contains(active) && keyOf(active)) {
    const t = active as HTMLInputElement;
    let start: number | null = null;
    let end: number | null = null;
    try {
      start = t.selectionStart ?? null;
      end = t.selectionEnd ?? null;
    } catch {
      // Inputs such as number do not expose a selection.
    }
    focus = { key: keyOf(active), start, end };
  }
  return { values, focus, scroll: [el.scrollLeft, el.scrollTop] };
}

/** Gives focus, selection and scroll back after the island rendered. */
export function restore(el: HTMLElement, adopted: Adopted): void {
  el.scrollLeft = adopted.scroll[0];
  el.scrollTop = adopted.scroll[1];
  const f = adopted.focus;
  if (!f) return;
  const target = Array.from(el.querySelectorAll<HTMLElement>('[name],[id]')).find((t) => keyOf(t) === f.key);
  if (!target) return;
  target.focus({ preventScroll: true });
  if (f.start !== null && 'setSelectionRange' in target) {
    try {
      (target as HTMLInputElement).setSelectionRange(f.start, f.end ?? f.start);
    } catch {
      // Not a text field any more.
    }
  }
}

/**
 * Replaces the fallback inside `el` with `render(adopted)`. Answers the root
 * (tests unmount it). A render error puts the fallback back and fires
 * `island-error`.
 */
export function takeOver(el: HTMLElement, render: (adopted: Adopted) => ReactNode): Root {
  const adopted = adopt(el);
  const fallback = Array.from(el.childNodes);
  const name = el.dataset.island || 'island';
  let failed = false;
  const root = createRoot(el, {
    // Each island is its own root: prefix useId so ids never collide across islands.
    identifierPrefix: `${name}-${++roots}-`,
    onUncaughtError(error) {
      if (failed) return;
      failed = true;
      console.error(`island ${name} failed`, error);
      queueMicrotask(() => {
        root.unmount();
        el.replaceChildren(...fallback);
        window.dispatchEvent(new CustomEvent('island-error', { detail: { name, error } }));
      });
    },
  });
  const y = window.scrollY;
  flushSync(() => root.render(render(adopted)));
  if (!failed) {
    restore(el, adopted);
    if (window.scrollY !== y) window.scrollTo(window.scrollX, y);
  }
  return root;
}
