/** Props of the online-status island: none; `back_ms` only shortens the "back online" note in tests. */
export interface OnlineStatusProps {
  back_ms?: number;
}
