import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { CLOSE_GUARD_MS, Modal } from './Modal';

function Harness({ title }: { title?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>Open</button>
      {open && (
        <Modal title={title} label="Offer" onClose={() => setOpen(false)}>
          <a href="/c/products">Shop now</a>
        </Modal>
      )}
    </>
  );
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const dialog = () => screen.queryByRole('dialog');
const later = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });

describe('Modal', () => {
  it('ignores a close within 500 ms of opening (the 500 ms rule)', () => {
    render(<Harness title="Eid offer" />);
    fireEvent.click(screen.getByText('Open'));
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(dialog()).not.toBeNull();
    later(CLOSE_GUARD_MS - 1);
    fireEvent.keyDown(document, { key: 'Escape' });
    fireEvent.click(dialog()!.parentElement!);
    expect(dialog()).not.toBeNull();
    later(1);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(dialog()).toBeNull();
  });

  it('closes on Escape and on the backdrop, not on a click inside', () => {
    render(<Harness />);
    fireEvent.click(screen.getByText('Open'));
    later(CLOSE_GUARD_MS);
    fireEvent.click(dialog()!);
    expect(dialog()).not.toBeNull();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(dialog()).toBeNull();

    fireEvent.click(screen.getByText('Open'));
    later(CLOSE_GUARD_MS);
    fireEvent.click(dialog()!.parentElement!);
    expect(dialog()).toBeNull();
  });

  it('flags the body while open, is labelled, and keeps focus inside', () => {
    render(<Harness title="Eid offer" />);
    const opener = screen.getByText('Open');
    opener.focus();
    fireEvent.click(opener);
    expect(document.body.classList.contains('modal-open')).toBe(true);
    expect(screen.getByRole('dialog', { name: 'Eid offer' }).getAttribute('aria-modal')).toBe('true');
    const close = screen.getByRole('button', { name: 'Close' });
    const link = screen.getByText('Shop now');
    expect(document.activeElement).toBe(close);
    link.focus();
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(document, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(link);
    later(CLOSE_GUARD_MS);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(document.body.classList.contains('modal-open')).toBe(false);
    expect(document.activeElement).toBe(opener);
  });

  it('uses the label as its name when it has no title', () => {
    render(<Harness />);
    fireEvent.click(screen.getByText('Open'));
    expect(screen.getByRole('dialog', { name: 'Offer' })).toBeTruthy();
    expect(screen.queryByRole('heading')).toBeNull();
  });
});
