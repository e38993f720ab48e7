// The check of the webhooks entry's numeric options (ms, bytes, counts): one rule, one message.
import { InvalidArgumentError } from '../index.js';

/**
 * `value`, or `fallback` when it is undefined; anything but a positive safe integer throws, naming the option.
 * @example `positiveInteger('storeTimeoutMs', options.storeTimeoutMs, 5_000)`
 * @internal
 */
export function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
    throw new InvalidArgumentError(name, `expected a positive integer, got ${String(value)}`);
  return value;
}
