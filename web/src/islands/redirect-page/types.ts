/** Props of redirect-page (/redirect-from-ssl and /nagad-thank-you): none; the query carries the order. */
export type RedirectPageProps = Record<string, never>;
