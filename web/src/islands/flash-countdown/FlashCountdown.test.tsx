import { act, render, screen } from '@testing-library/react';
import { countdownText, FlashCountdown, formatLeft } from './FlashCountdown';
import mount from './index';

const T0 = 1_750_000_000_000; // browser clock, ms

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('flash-countdown', () => {
  it('formats what is left', () => {
    expect(formatLeft(5)).toBe('00:00:05');
    expect(formatLeft(3 * 3600 + 4 * 60 + 5)).toBe('03:04:05');
    expect(formatLeft(2 * 86400 + 3661)).toBe('2d 01:01:01');
    expect(formatLeft(-3)).toBe('00:00:00');
  });

  it('counts to the start, then to the end, then says it ended', () => {
    const p = { starts_at: T0 / 1000 + 60, ends_at: T0 / 1000 + 120 };
    expect(countdownText(p, T0)).toBe('Starts in 00:01:00');
    expect(countdownText(p, T0 + 61_000)).toBe('Ends in 00:00:59');
    expect(countdownText(p, T0 + 120_000)).toBe('This flash sale has ended');
  });

  it('ticks every second on the server clock from props', () => {
    // The browser is 10 minutes slow: the server says 10 minutes later.
    render(<FlashCountdown ends_at={T0 / 1000 + 3600} offset_ms={600_000} />);
    expect(screen.getByRole('timer').textContent).toBe('Ends in 00:50:00');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getByRole('timer').textContent).toBe('Ends in 00:49:59');
  });

  it('reads the server clock from the Date header of a HEAD request when props have none', async () => {
    const fetch = vi.fn(() => Promise.resolve(new Response(null, { headers: { Date: new Date(T0 - 120_000).toUTCString() } })));
    vi.stubGlobal('fetch', fetch);
    render(<FlashCountdown ends_at={T0 / 1000 + 600} />);
    expect(screen.getByRole('timer').textContent).toBe('Ends in 00:10:00');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(fetch).toHaveBeenCalledWith(location.href, { method: 'HEAD', cache: 'no-store' });
    // The browser runs 2 minutes fast: 12 minutes are left by the server's clock.
    expect(screen.getByRole('timer').textContent).toBe('Ends in 00:12:00');
  });

  it('mounts inside the fallback line, keeping the heading', () => {
    document.body.innerHTML =
      '<div data-island="flash-countdown"><h2><a href="/page/flash-sale">Eid sale</a></h2><p class="pr">Ends 5 May 2026, 22:00</p></div>';
    const el = document.querySelector<HTMLElement>('[data-island]')!;
    let root!: ReturnType<typeof mount>;
    act(() => {
      root = mount(el, { ends_at: T0 / 1000 + 90, offset_ms: 0 });
    });
    expect(el.querySelector('h2')!.textContent).toBe('Eid sale');
    expect(el.querySelector('.pr')!.textContent).toBe('Ends in 00:01:30');
    act(() => root.unmount());
  });
});
