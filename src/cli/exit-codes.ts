/**
 * Exit codes: 0 done; 1 failed; 2 bad usage (unknown option, bad value, no API key); 75 stopped
 * before the end (budget spent, `--max-requests` reached, Ctrl-C) with progress saved: run the same
 * command again to resume (75 is EX_TEMPFAIL: "try again later"). In a file of their own, so the
 * commands and the program that registers them import them without importing each other.
 * @internal
 */
export const EXIT = { done: 0, failed: 1, usage: 2, stopped: 75 } as const;
