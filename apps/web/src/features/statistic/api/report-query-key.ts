/** Every report query of the statistic page lives under this key. */
export const REPORTS_QUERY_KEY = ['reports'] as const;

/** Reports are about the past minute at the latest: a minute of freshness is enough. */
export const REPORT_STALE_MS = 60_000;
