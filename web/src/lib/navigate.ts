// Page navigation in one place, so tests can watch it (jsdom cannot navigate).

import { emit } from './events';

/** Goes to `url` as a link click would, and says so to the loading bar. */
export function navigate(url: string): void {
  emit('loading:route', { url });
  window.location.assign(url);
}

/** The sign-in page, asked to come back to this page afterwards. */
export function loginUrl(): string {
  const here = location.pathname + location.search;
  return here && here !== '/' ? `/user/login?redirect=${encodeURIComponent(here)}` : '/user/login';
}
