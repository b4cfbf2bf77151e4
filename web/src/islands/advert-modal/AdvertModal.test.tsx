import { act, fireEvent, render, screen } from '@testing-library/react';
import { AdvertModal, AGAIN_AFTER_MS, SEEN_KEY } from './AdvertModal';

beforeEach(() => {
  localStorage.clear();
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('advert-modal', () => {
  it('opens with the widget HTML on load and closes after the 500 ms rule', () => {
    render(<AdvertModal description={'<p>Eid sale: <a href="/page/flash-sale">30% off</a></p>'} />);
    const dialog = screen.getByRole('dialog', { name: 'Offer' });
    expect(screen.getByRole('link', { name: '30% off' }).getAttribute('href')).toBe('/page/flash-sale');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBe(dialog);
    act(() => {
      vi.advanceTimersByTime(500);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.body.classList.contains('modal-open')).toBe(false);
  });

  it('stays shut when empty, and shows at most once an hour', () => {
    render(<AdvertModal description="" />).unmount();
    expect(screen.queryByRole('dialog')).toBeNull();

    vi.setSystemTime(1_000_000_000_000);
    render(<AdvertModal description="<p>x</p>" />).unmount();
    expect(localStorage.getItem(SEEN_KEY)).toBe('1000000000000');
    vi.setSystemTime(1_000_000_000_000 + AGAIN_AFTER_MS - 1);
    render(<AdvertModal description="<p>x</p>" />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('stays shut once its sale has ended, on a page written before the end', () => {
    vi.setSystemTime(2_000_000_000_000);
    render(<AdvertModal description="<p>x</p>" ends_at={2_000_000_000} />).unmount();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(localStorage.getItem(SEEN_KEY)).toBeNull();
    vi.setSystemTime(2_000_000_000_000 - 1);
    render(<AdvertModal description="<p>x</p>" ends_at={2_000_000_000} />);
    expect(screen.getByRole('dialog', { name: 'Offer' })).toBeTruthy();
  });
});
