/**
 * A simulator clock that starts just after a window boundary and then runs with the wall clock.
 *
 * The simulator's rate windows are aligned to multiples of their length on its clock. A test that
 * spends a window and expects the next call to be refused fails when, by chance, it straddles a
 * boundary (a new minute) on the real clock. Starting the simulator's clock 1 ms into a window gives
 * the test the whole window; it stays ahead of the real clock by less than one window, so the
 * client still sees every `reset` in the future.
 */
export function windowStartClock(intervalMs: number): () => number {
  const offset = intervalMs - (Date.now() % intervalMs) + 1;
  return () => Date.now() + offset;
}
