/**
 * A fault to inject into matching responses.
 * - `status`: an error envelope with that status (429 `RATE_LIMITED` with an exhausted budget,
 *   5xx `INTERNAL_ERROR`); `code`/`message` override the defaults.
 * - `delay`: wait `ms` real milliseconds (honouring the request's abort signal), then serve normally.
 * - `drop`: no response at all: `sim.fetch` rejects with a `TypeError` like a failed `fetch`, msw
 *   answers with a network error, the HTTP server destroys the socket.
 * - `malformed`: 200 with truncated JSON.
 * - `html`: a proxy's HTML error page (default status 502).
 *
 * @example
 * ```ts
 * sim.inject({ fault: { type: 'status', status: 503 }, times: 2 });
 * ```
 */
export type Fault =
  | { type: 'status'; status: 429 | 500 | 502 | 503; code?: string; message?: string }
  | { type: 'delay'; ms: number }
  | { type: 'drop' }
  | { type: 'malformed'; status?: number }
  | { type: 'html'; status?: number };

/**
 * Which requests a fault applies to. `path` is relative to the base URL (`/projects/…`): a string
 * matches as a prefix, a RegExp is tested. Omitted fields match everything.
 *
 * @example `{ method: 'GET', path: /\/rankings\/keywords$/ }`
 */
export interface FaultMatch {
  /** HTTP method, e.g. `'GET'`. */
  method?: string;
  /** Path under the base URL: a string matches as a prefix, a RegExp is tested. */
  path?: string | RegExp;
}

/**
 * A fault injection: `fault` for the next `times` (default 1; `Infinity` for all) matching requests.
 * @example `sim.inject({ match: { path: '/webhooks' }, fault: { type: 'drop' } })`
 */
export interface FaultSpec {
  /** Which requests it applies to; omitted: every request. */
  match?: FaultMatch;
  /** How many matching requests get the fault (`Infinity` for all). @default 1 */
  times?: number;
  /** What those requests get instead of a normal response. */
  fault: Fault;
}

/**
 * Returned by `sim.inject`: how many uses are left, and a way to withdraw the fault.
 * @example `const h = sim.inject({ fault: { type: 'drop' }, times: Infinity }); h.cancel();`
 */
export interface FaultHandle {
  /** Matching requests the fault will still hit. */
  readonly remaining: number;
  /** Withdraws the fault: no further request gets it. */
  cancel(): void;
}

interface Armed {
  spec: FaultSpec;
  remaining: number;
}

/**
 * Armed faults in injection order; the first match wins and is used up.
 * @example `queue.take('GET', '/projects')?.type // 'drop'`
 * @internal
 */
export class FaultQueue {
  #armed: Armed[] = [];

  /** Arms a fault. */
  add(spec: FaultSpec): FaultHandle {
    const times = spec.times ?? 1;
    if (!(times >= 1)) throw new RangeError('inject: times must be ≥ 1');
    validate(spec.fault);
    const armed: Armed = { spec, remaining: times };
    this.#armed.push(armed);
    return {
      get remaining() {
        return armed.remaining;
      },
      cancel: () => {
        armed.remaining = 0;
        this.#armed = this.#armed.filter((a) => a !== armed);
      },
    };
  }

  /** The fault for this request, if any (consuming one use). */
  take(method: string, path: string): Fault | undefined {
    const hit = this.#armed.find((a) => matches(a.spec.match, method, path));
    if (!hit) return undefined;
    hit.remaining--;
    if (hit.remaining <= 0) this.#armed = this.#armed.filter((a) => a !== hit);
    return hit.spec.fault;
  }

  /** Disarms everything. */
  clear(): void {
    for (const a of this.#armed) a.remaining = 0;
    this.#armed = [];
  }
}

function matches(match: FaultMatch | undefined, method: string, path: string): boolean {
  if (!match) return true;
  if (match.method && match.method.toUpperCase() !== method) return false;
  if (match.path instanceof RegExp) return match.path.test(path);
  return match.path === undefined || path.startsWith(match.path);
}

function validate(fault: Fault): void {
  if (fault.type === 'delay' && !(fault.ms >= 0)) throw new RangeError('inject: delay ms must be ≥ 0');
  if (fault.type === 'status' && ![429, 500, 502, 503].includes(fault.status))
    throw new RangeError('inject: status must be 429, 500, 502 or 503');
}
