import { act, render, screen } from '@testing-library/react';
import { OnlineStatus } from './OnlineStatus';

function goOnline(on: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(on);
  act(() => {
    window.dispatchEvent(new Event(on ? 'online' : 'offline'));
  });
}

afterEach(() => vi.restoreAllMocks());

describe('online-status', () => {
  it('says nothing while online, warns when offline and notes the return', () => {
    vi.useFakeTimers();
    render(<OnlineStatus back_ms={1000} />);
    expect(screen.getByRole('status').textContent).toBe('');
    goOnline(false);
    expect(screen.getByRole('status').textContent).toMatch(/You are offline/);
    goOnline(true);
    expect(screen.getByRole('status').textContent).toBe('Back online.');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getByRole('status').textContent).toBe('');
    vi.useRealTimers();
  });

  it('starts offline when the page opened without a connection', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    render(<OnlineStatus />);
    expect(screen.getByRole('status').textContent).toMatch(/offline/);
  });
});
