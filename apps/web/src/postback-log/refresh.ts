/** How often the postback log refetches while auto-refresh is on: fresh enough to watch a test postback. */
export const POSTBACK_LOG_REFRESH_MS = 15_000;
