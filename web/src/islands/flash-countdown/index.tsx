import { takeOver } from '../../lib/island';
import { FlashCountdown } from './FlashCountdown';
import type { FlashCountdownProps } from './types';

/**
 * Counts down inside the fallback's `[data-countdown]` element, else its
 * `.pr` line ("Ends 5 May 2026, 22:00"), else the whole island, so the
 * fallback's heading and links stay as the generator wrote them.
 */
export default function mount(el: HTMLElement, props: FlashCountdownProps) {
  const target = el.querySelector<HTMLElement>('[data-countdown]') ?? el.querySelector<HTMLElement>('.pr') ?? el;
  return takeOver(target, () => <FlashCountdown {...props} />);
}
