/** Props of flash-countdown (times in Unix seconds, as the generator writes them). */
export interface FlashCountdownProps {
  /** When the sale ends. */
  ends_at: number;
  /** When it starts; before then the countdown counts to the start. */
  starts_at?: number;
  /** Server time minus browser time in ms, when the page knows it; otherwise read from a `Date` header. */
  offset_ms?: number;
}
