/**
 * Exit codes: 0 done; 1 failed; 2 bad usage (unknown option, bad value, no API key); 3 a report's
 * `--alert` threshold was crossed (the report is written); 75 stopped before the end (budget spent,
 * `--max-requests` reached, Ctrl-C) with progress saved: run the same command again to resume (75 is
 * EX_TEMPFAIL: "try again later").
 * @internal
 */
export const EXIT = { done: 0, failed: 1, usage: 2, alert: 3, stopped: 75 } as const;
