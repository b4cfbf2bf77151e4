// Page navigation in one place, so tests can watch it (jsdom cannot navigate).

/** Goes to `url` as a link click would. */
export function navigate(url: string): void {
  window.location.assign(url);
}
