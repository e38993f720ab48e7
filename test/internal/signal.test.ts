import { expect, test } from 'vitest';
import { nativeSignal } from '../../src/internal/signal.js';

/** An object that behaves like an AbortSignal without being one (what a polyfill makes). */
function lookAlike(aborted = false, reason?: unknown) {
  const listeners = new Set<() => void>();
  const signal = {
    aborted,
    reason,
    addEventListener: (_type: string, listener: () => void) => void listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => void listeners.delete(listener),
  };
  const abort = (why: unknown) => {
    Object.assign(signal, { aborted: true, reason: why });
    for (const listener of listeners) listener();
  };
  return { signal: signal as unknown as AbortSignal, abort };
}

test('a native signal (or none) is used as is', () => {
  const native = new AbortController().signal;
  expect(nativeSignal(native)).toBe(native);
  expect(nativeSignal(undefined)).toBeUndefined();
});

test('a look-alike gets one native twin that aborts with the same reason', () => {
  const { signal, abort } = lookAlike();
  const twin = nativeSignal(signal)!;
  expect(twin).toBeInstanceOf(AbortSignal);
  expect(nativeSignal(signal)).toBe(twin); // one twin per signal, however many pages use it
  expect(twin.aborted).toBe(false);
  abort('stop');
  expect(twin.aborted).toBe(true);
  expect(twin.reason).toBe('stop');
  expect(() => AbortSignal.any([twin])).not.toThrow();
});

test('a look-alike aborted already gives a twin aborted already', () => {
  const twin = nativeSignal(lookAlike(true, 'early').signal)!;
  expect(twin.aborted).toBe(true);
  expect(twin.reason).toBe('early');
});
