import { takeOver } from '../../lib/island';
import { TrackOrderPage } from './TrackOrderPage';
import type { TrackOrderPageProps } from './types';

/** Fills the track-order shell. */
export default function mount(el: HTMLElement, _props: TrackOrderPageProps) {
  return takeOver(el, () => <TrackOrderPage />);
}
