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

  it('runs while the next page loads after a form is sent, and stops when the page comes back from the cache', () => {
    const state = bar();
    const form = document.body.appendChild(document.createElement('form'));
    act(() => {
      form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    });
    later(199);
    expect(state()).toBe('idle');
    later(1);
    expect(state()).toBe('running');
    act(() => {
      window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    });
    expect(state()).toBe('idle');
    form.remove();
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
