/** Props of loading-bar (SPEC.md §9 defaults). */
export interface LoadingBarProps {
  /** Show the bar only for requests still running after this many ms. */
  throttle_ms?: number;
  /** How long the bar takes to creep across while waiting, in ms. */
  duration_ms?: number;
}
