// Page navigation in one place, so tests can watch it (jsdom cannot navigate).

/** Goes to `url` as a link click would. */
export function navigate(url: string): void {
  window.location.assign(url);
}

/** The sign-in page, asked to come back to this page afterwards. */
export function loginUrl(): string {
  const here = location.pathname + location.search;
  return here && here !== '/' ? `/user/login?redirect=${encodeURIComponent(here)}` : '/user/login';
}
