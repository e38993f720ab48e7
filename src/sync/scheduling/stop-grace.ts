/**
 * How long a stopped run waits for the store after the stop (the commit in flight, the last progress
 * entry) before it stops waiting and closes the store. A page commits in milliseconds; a store that
 * does not answer for this long (a frozen or cut-off database) must not hold the stop: the page in
 * flight is then rolled back by the store (all or nothing), and the next run resumes before it.
 * @internal
 */
export const STOP_GRACE_MS = 5_000;

/** What {@link stopGrace} resolves with when the grace after a stop has run out. @internal */
export const ABANDONED: unique symbol = Symbol('abandoned');

/**
 * A promise that resolves with {@link ABANDONED} `ms` after `signal` aborts (never when it does not),
 * to race against the store's work; `cancel` clears its timer.
 * @internal
 */
export function stopGrace(
  signal: AbortSignal | undefined,
  ms = STOP_GRACE_MS,
): { expired: Promise<typeof ABANDONED>; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const expired = new Promise<typeof ABANDONED>((resolve) => {
    if (!signal) return;
    onAbort = () => {
      timer = setTimeout(() => resolve(ABANDONED), ms);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return {
    expired,
    cancel: () => {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    },
  };
}
