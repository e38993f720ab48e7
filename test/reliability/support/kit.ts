/**
 * Shared pieces of the fault scenarios: a client with fast retries, a distinctive key to hunt for
 * in everything the SDK produces, and a row builder that turns a call's outcome into report text.
 */
import { inspect } from 'node:util';
import { type ClientOptions, SeoVisibilityClient } from '../../../src/index.js';
import { describeSettled, settle } from './outcome.js';
import type { Row } from './report.js';

/** The key used against the purpose-built server: easy to find if it ever leaks. */
export const KEY = 'sk_live_RELIABILITYsecret0123456789';

/** Everything a logger and the hooks received, to search for the key. */
export const seenByObservers: unknown[] = [];

/**
 * A client with retries that are fast but real (1–5 ms backoff) and long default timers (60 s), so
 * a leaked timer would keep the process alive well past the scenario's deadline.
 */
export function fastClient(baseUrl: string, options: ClientOptions = {}): SeoVisibilityClient {
  return new SeoVisibilityClient({
    apiKey: KEY,
    baseUrl,
    maxRetries: 2,
    timeout: 60_000,
    retryBackoff: { initialDelay: 1, maxDelay: 5 },
    logger: { debug: (...args) => seenByObservers.push(args), warn: (...args) => seenByObservers.push(args) },
    hooks: {
      onRequest: [(info) => seenByObservers.push(info)],
      onResponse: [(info) => seenByObservers.push(info)],
      onRetry: [(info) => seenByObservers.push(info)],
    },
    ...options,
  });
}

/** Every view of an error a user (or a log pipeline) might print. */
export function renderings(value: unknown): string[] {
  const out = [inspect(value, { depth: Infinity, showHidden: true, getters: true }), String(value)];
  try {
    out.push(JSON.stringify(value) ?? '');
  } catch {
    // Circular values cannot be stringified, which is fine: nothing is printed.
  }
  if (value instanceof Error) out.push(value.message, value.stack ?? '');
  return out;
}

/** Whether `key` appears in any rendering of `value`. */
export const leaks = (value: unknown, key: string): boolean => renderings(value).some((text) => text.includes(key));

/**
 * Runs a call and describes its outcome (`ok` or the typed error); appends ` KEY LEAKED` when the
 * error, or anything the logger and hooks received, shows the key.
 */
export async function outcomeOf(pending: PromiseLike<unknown>, key = KEY): Promise<string> {
  const settled = await settle(pending);
  const leaked = leaks(settled.error, key) || leaks(seenByObservers, key);
  return `${describeSettled(settled)}${leaked ? ' KEY LEAKED' : ''}`;
}

/** Builds a report row. */
export function row(
  area: string,
  input: string,
  cases: number,
  expected: string,
  observed: string,
  expectedServer: string,
  serverSaw: string,
): Row {
  return { area, input, cases, expected, observed, expectedServer, serverSaw };
}
