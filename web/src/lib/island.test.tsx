import { act } from '@testing-library/react';

import { useState } from 'react';
import type { IslandEvents } from './events';
import { takeOver } from './island';

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

function Search({ initial }: { initial: string }) {
  const [q, setQ] = useState(initial);
  return (
    <form>
      <input name="keyword" aria-label="Search" value={q} onChange={(e) => setQ(e.target.value)} />
      <span data-testid="echo">{q}</span>
    </form>
  );
}

describe('takeOver', () => {
  it('adopts the typed text, focus and selection of the fallback', () => {
    document.body.innerHTML = '<div data-island="search-box"><form><input name="keyword" value=""><button>Search</button></form></div>';
    const el = document.querySelector<HTMLElement>('[data-island]')!;
    const input = el.querySelector('input')!;
    input.value = 'dining tab';
    input.focus();
    input.setSelectionRange(7, 10);
    let root!: ReturnType<typeof takeOver>;
    act(() => {
      root = takeOver(el, (adopted) => <Search initial={adopted.values.keyword ?? ''} />);
    });
    const now = el.querySelector('input')!;
    expect(now).not.toBe(input);
    expect(now.value).toBe('dining tab');
    expect(el.querySelector('[data-testid=echo]')!.textContent).toBe('dining tab');
    expect(document.activeElement).toBe(now);
    expect([now.selectionStart, now.selectionEnd]).toEqual([7, 10]);
    expect(el.querySelector('button')).toBeNull();
    act(() => root.unmount());
  });

  it('puts the fallback back and reports when the island throws while rendering', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    document.body.innerHTML = '<div data-island="buy-buttons"><a href="/cart">Cart</a></div>';
    const el = document.querySelector<HTMLElement>('[data-island]')!;
    const errors: string[] = [];
    window.addEventListener('island-error', (e) => errors.push((e as CustomEvent<IslandEvents['island-error']>).detail.name), { once: true });
    function Broken(): never {
      throw new Error('render failed');
    }
    // As in a browser: outside act(), React reports the error to the root.
    const g = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    const before = g.IS_REACT_ACT_ENVIRONMENT;
    g.IS_REACT_ACT_ENVIRONMENT = false;
    takeOver(el, () => <Broken />);
    await Promise.resolve();
    await Promise.resolve();
    g.IS_REACT_ACT_ENVIRONMENT = before;
    expect(el.innerHTML).toBe('<a href="/cart">Cart</a>');
    expect(errors).toEqual(['buy-buttons']);
  });
});

describe('takeOver ids', () => {
  it('gives each island root its own useId prefix', async () => {
    const { useId } = await import('react');
    function WithId() {
      return <p id={useId()}>x</p>;
    }
    document.body.innerHTML = '<div data-island="a"></div><div data-island="b"></div>';
    const [a, b] = Array.from(document.querySelectorAll<HTMLElement>('[data-island]'));
    act(() => {
      takeOver(a, () => <WithId />);
      takeOver(b, () => <WithId />);
    });
    expect(a.querySelector('p')!.id).not.toBe(b.querySelector('p')!.id);
  });
});
