/**
 * The injected clock of the chaos suite: vitest's fake timers (setTimeout, setInterval and Date),
 * moved a step at a time while a call is pending. A call that has not settled after `boundMs` of
 * simulated time is a hang; nothing here waits on the wall clock.
 */
import { vi } from 'vitest';

/** Noon UTC on a fixed day: a run never crosses midnight by accident. */
export const T0 = Date.UTC(2026, 5, 10, 12, 0, 0);
export const DAY = 86_400_000;

/** Fakes the clock at `T0`. */
export function useFakeClock(): void {
  vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
}

/** How a driven call ended: its value or error, or `hung` after `boundMs` of simulated time. */
export type Driven<T> =
  | { kind: 'value'; value: T; elapsedMs: number }
  | { kind: 'error'; error: unknown; elapsedMs: number }
  | { kind: 'hung'; elapsedMs: number };

/**
 * Starts `call` and moves the faked clock `stepMs` at a time until it settles or `boundMs` of
 * simulated time have passed.
 */
export async function drive<T>(call: () => Promise<T>, boundMs: number, stepMs = 1_000): Promise<Driven<T>> {
  const start = Date.now();
  let settled: Driven<T> | undefined;
  call().then(
    (value) => void (settled = { kind: 'value', value, elapsedMs: Date.now() - start }),
    (error: unknown) => void (settled = { kind: 'error', error, elapsedMs: Date.now() - start }),
  );
  for (let i = 0; i < 50 && !settled; i++) await vi.advanceTimersByTimeAsync(0);
  while (!settled && Date.now() - start < boundMs) await vi.advanceTimersByTimeAsync(stepMs);
  return settled ?? { kind: 'hung', elapsedMs: Date.now() - start };
}
