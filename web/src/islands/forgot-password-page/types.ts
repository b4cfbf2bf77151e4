/** Props of forgot-password-page: none. */
export type ForgotPasswordPageProps = Record<string, never>;
