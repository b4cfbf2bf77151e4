import { act, render } from '@testing-library/react';
import { emit } from '../../lib/events';
import { FAILED_LINGER_MS, LINGER_MS, LoadingBar } from './LoadingBar';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const later = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });
const fire = (name: 'loading:start' | 'loading:finish') => act(() => emit(name, { url: '/api/x' }));

function bar() {
  const { container } = render(<LoadingBar />);
  const el = container.firstElementChild as HTMLElement;
  return () => el.dataset.state;
}

describe('loading-bar', () => {
  it('stays hidden for requests quicker than the 200 ms throttle', () => {
    const state = bar();
    fire('loading:start');
    later(199);
    fire('loading:finish');
    later(1000);
    expect(state()).toBe('idle');
  });

  it('runs for slower requests, with the 5000 ms duration, and finishes when all are done', () => {
    const { container } = render(<LoadingBar />);
    const el = container.firstElementChild as HTMLElement;
    expect(el.style.animationDuration).toBe('5000ms');
    fire('loading:start');
    fire('loading:start');
    later(200);
    expect(el.dataset.state).toBe('running');
    fire('loading:finish');
    expect(el.dataset.state).toBe('running');
    fire('loading:finish');
    expect(el.dataset.state).toBe('done');
    later(LINGER_MS);
    expect(el.dataset.state).toBe('idle');
  });

  it('turns to failed when a request fails, then hides', () => {
    const state = bar();
    fire('loading:start');
    act(() => {
      emit('loading:finish', { url: '/api/x' });
      emit('loading:fail', { url: '/api/x', status: 500 });
    });
    expect(state()).toBe('failed');
    later(FAILED_LINGER_MS);
    expect(state()).toBe('idle');
  });

  it('runs at once while the next page loads after a form is sent, and stops when the page comes back from the cache', () => {
    const state = bar();
    const form = document.body.appendChild(document.createElement('form'));
    act(() => {
      form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    });
    expect(state()).toBe('running');
    act(() => {
      window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    });
    expect(state()).toBe('idle');
    form.remove();
  });

  it('starts at once on a tap on a link to another page of this site, and runs until the page goes', () => {
    const state = bar();
    const a = document.body.appendChild(document.createElement('a'));
    a.href = '/c/sofas';
    a.addEventListener('click', (e) => e.preventDefault()); // jsdom cannot navigate; the bar listens after it
    const tap = () =>
      act(() => {
        a.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: false, button: 0 }));
      });
    // An island's request under way when the shopper taps, ending while the next page loads.
    fire('loading:start');
    tap();
    expect(state()).toBe('running');
    fire('loading:finish');
    later(LINGER_MS + 5000);
    expect(state()).toBe('running');
    // The page goes (pagehide, into the back-forward cache as well): the bar stops, so a page
    // brought back by Back does not show it running.
    act(() => {
      window.dispatchEvent(Object.assign(new Event('pagehide'), { persisted: true }));
    });
    expect(state()).toBe('idle');
    // Again, and back from the cache without a pagehide seen.
    tap();
    expect(state()).toBe('running');
    act(() => {
      window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    });
    expect(state()).toBe('idle');
    a.remove();
  });

  it('runs at once when an island goes to another page (navigate)', () => {
    const state = bar();
    act(() => emit('loading:route', { url: '/payment' }));
    expect(state()).toBe('running');
  });

  it('does not run for a link within the page or a form an island handles', () => {
    const state = bar();
    const a = document.body.appendChild(document.createElement('a'));
    a.href = '#account';
    const form = document.body.appendChild(document.createElement('form'));
    form.addEventListener('submit', (e) => e.preventDefault());
    act(() => {
      a.click();
      form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    });
    later(1000);
    expect(state()).toBe('idle');
    a.remove();
    form.remove();
  });
});
