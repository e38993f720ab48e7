/** The native twin of each polyfilled signal, made once (a list's pages share their call's signal). */
const twins = new WeakMap<object, AbortSignal>();

/**
 * A native `AbortSignal` that follows `signal`. The option check accepts any object that behaves
 * like a signal (`aborted` and `addEventListener`), as a polyfill makes; fetch and
 * `AbortSignal.any` accept only the runtime's own class, so a look-alike gets a native twin that
 * aborts, with the same reason, when it does.
 *
 * @example
 * ```ts
 * const signal = nativeSignal(options.signal); // the same signal when it is native already
 * ```
 * @internal
 */
export function nativeSignal(given: AbortSignal | undefined): AbortSignal | undefined {
  if (given === undefined || given instanceof AbortSignal) return given;
  const signal: AbortSignal = given; // a look-alike, though typed as the real class
  let twin = twins.get(signal);
  if (!twin) {
    const controller = new AbortController();
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
    twin = controller.signal;
    twins.set(signal, twin);
  }
  return twin;
}
