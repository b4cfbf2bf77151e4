/** Props of reset-password-page: none; the link's query carries `token` and `email`. */
export type ResetPasswordPageProps = Record<string, never>;
