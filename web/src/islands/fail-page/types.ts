/** Props of fail-page: none; the query may carry `data` (the gateway's message). */
export type FailPageProps = Record<string, never>;
