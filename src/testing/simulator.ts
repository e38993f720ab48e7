import { makeKeys } from './auth.js';
import type { SimulatorKeys } from './auth.js';
import { seedStore } from './data/seed.js';
import { SimulatorData } from './data-view.js';
import { EventBus } from './events.js';
import { FaultQueue } from './faults.js';
import type { FaultHandle, FaultSpec } from './faults.js';
import { startHttpServer } from './http-server.js';
import type { ListenOptions, SimulatorServer } from './http-server.js';
import { resolveOptions } from './options.js';
import type { ResolvedOptions, SimulatorOptions } from './options.js';
import { dispatch, requestIds } from './pipeline.js';
import type { Outcome } from './outcome.js';
import type { PipelineDeps } from './pipeline.js';
import { RateLimiter, type SimRateWindow } from './rate-limiter.js';
import type { Store } from './store.js';
import { runDue } from './transitions.js';
import type { DeliveryRecord, RequestLogEntry } from './logs.js';
import { ChaosController } from './chaos/chaos.js';

/**
 * A stateful, in-memory simulator of the whole SEO and AI Visibility REST API v1. Every form
 * (`fetch`, msw handlers from `seo-visibility/testing/msw`, a real HTTP server) goes through `handle`, so they all behave the same.
 *
 * @example
 * ```ts
 * import { createSimulator } from 'seo-visibility/testing';
 * const sim = createSimulator({ seed: 1 });
 * const res = await sim.fetch(`${sim.baseUrl}/projects`, { headers: { authorization: `Bearer ${sim.keys.readOnly}` } });
 * (await res.json()).data.length; // 4
 * ```
 */
export class Simulator {
  /** The two valid API keys. @example `headers: { authorization: 'Bearer ' + sim.keys.readOnly }` */
  readonly keys: SimulatorKeys;
  /** Read access to the current state (projects, keywords, audits, …). @example `sim.data.listedProjects.length // 4` */
  readonly data: SimulatorData;
  /** Base URL served by `fetch` and, by default, `mswHandlers(sim)` (default `http://localhost/api/v1`). @example `await sim.fetch(sim.baseUrl + '/projects', init)` */
  readonly baseUrl: string;
  /**
   * The rate windows this simulator enforces per key, `speedup` applied, in the client's shape: pass
   * them as the client's `rateLimit.windows` (and a sync's `windows`) so it paces itself on them.
   * Empty when the simulator does not limit (`rateLimit: false`).
   *
   * ```ts
   * const sim = createSimulator({ speedup: 60 });
   * sim.rateWindows[0]; // { limit: 200, intervalMs: 1000 }: the documented minute lasts a second
   * ```
   */
  readonly rateWindows: SimRateWindow[];
  /**
   * A fetch-compatible function serving the API, for the SDK client's `fetch` option. A dropped
   * connection rejects with `TypeError`, like a real `fetch`. Its input is spelled `string | URL |
   * Request` rather than the DOM's `RequestInfo`, so a Node project without the `dom` lib checks it.
   * @example `new SeoVisibilityClient({ apiKey: sim.keys.readWrite, baseUrl: sim.baseUrl, fetch: sim.fetch })`
   */
  readonly fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /**
   * The seeded chaos mode, when the `chaos` option is set: `nextRun()` starts the next run, `journal`
   * says what chaos did, `changes` how it changed the truth (`sim.data` reads the changed truth).
   * @example `sim.chaos?.nextRun(); sim.chaos?.journal.filter((e) => e.kind === 'gateway-429').length`
   */
  readonly chaos: ChaosController | undefined;

  readonly #options: ResolvedOptions;
  readonly #store: Store;
  readonly #limiter: RateLimiter;
  readonly #faults = new FaultQueue();
  readonly #requests: RequestLogEntry[] = [];
  readonly #deliveries: DeliveryRecord[] = [];
  readonly #bus: EventBus;
  readonly #deps: PipelineDeps;
  #offset = 0;

  constructor(options: SimulatorOptions = {}) {
    this.#options = resolveOptions(options);
    const o = this.#options;
    this.baseUrl = o.baseUrl;
    this.rateWindows = o.windows === false ? [] : o.windows.map((w) => ({ ...w }));
    this.keys = makeKeys(o.seed, o.keys);
    this.#store = seedStore({ seed: o.seed, now: () => this.now(), keywordsPerProject: o.keywordsPerProject });
    this.data = new SimulatorData(this.#store);
    this.#limiter = new RateLimiter(o.windows);
    this.chaos = o.chaos ? new ChaosController(o.chaos, this.#store) : undefined;
    this.#bus = new EventBus(this.#store, o.deliver, this.#deliveries, o.deliveryTimeoutMs);
    this.#deps = {
      store: this.#store,
      keys: this.keys,
      limiter: this.#limiter,
      faults: this.#faults,
      log: this.#requests,
      latencyMs: o.latencyMs,
      nextRequestId: requestIds(o.seed),
      chaos: this.chaos,
      context: {
        plan: o.plan,
        sendTest: (hook) =>
          this.#bus.send(
            hook,
            {
              event: 'webhook.test',
              timestamp: new Date(this.now()).toISOString(),
              project_id: hook.project_id,
              data: { webhook_id: hook.id, message: 'Test delivery from the SEO and AI Visibility simulator' },
            },
            this.now(),
          ),
      },
    };
    this.fetch = (input, init) => this.handle(new Request(input, init));
  }

  /** The simulator clock in epoch ms: the `now` option plus everything `advance` added. @example `new Date(sim.now()).toISOString()` */
  now(): number {
    return this.#options.now() + this.#offset;
  }

  /** Requests seen so far (live array; `authorization` redacted). @example `sim.requests.filter((r) => r.status === 429).length` */
  get requests(): readonly RequestLogEntry[] {
    return this.#requests;
  }

  /** Webhook deliveries attempted so far (live array), in delivery order. @example `sim.deliveries.map((d) => d.payload.event)` */
  get deliveries(): readonly DeliveryRecord[] {
    return this.#deliveries;
  }

  /**
   * Serves one request: the core every form goes through. Rejects with `TypeError` when an
   * injected `drop` fault hits, and with the abort reason when the request is aborted mid-delay.
   * @example `const res = await sim.handle(new Request(sim.baseUrl + '/webhooks', { headers }))`
   */
  async handle(request: Request): Promise<Response> {
    const outcome = await this.dispatch(request);
    if (outcome.kind === 'drop')
      throw new TypeError('fetch failed', { cause: new Error('simulator dropped the connection (injected fault)') });
    return outcome.response;
  }

  /**
   * Like `handle`, but reports a dropped connection as `{ kind: 'drop' }` so a transport can act
   * on it (destroy a socket, answer a network error). `basePath` defaults to the base URL's path.
   * @internal
   */
  dispatch(request: Request, basePath: string = this.#options.basePath): Promise<Outcome> {
    return dispatch(this.#deps, request, basePath);
  }

  /**
   * Starts a real HTTP server on loopback (Node only). `url` ends with the base path (`/api/v1`).
   * @example
   * ```ts
   * const server = await sim.listen({ port: 0 });
   * await fetch(`${server.url}/projects`, { headers });
   * await server.close();
   * ```
   */
  listen(options: ListenOptions = {}): Promise<SimulatorServer> {
    return startHttpServer(this, this.#options.basePath, options);
  }

  /**
   * Moves the simulator clock forward by `ms`, runs every transition that falls due (audits,
   * daily keyword scans, prompt analyses, content workflow) in time order, and delivers their
   * events. Resolves with the deliveries made, once all are done. `advance(0)` runs what is due
   * on the current clock (useful when the injected `now` moved by itself).
   * @example `await sim.advance(24 * 60 * 60 * 1000); // one day: keywords.updated, prompts.updated, …`
   */
  async advance(ms: number): Promise<DeliveryRecord[]> {
    if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError('advance: ms must be a finite number ≥ 0');
    const until = this.now() + ms;
    const events = runDue(this.#store, until);
    this.#offset += ms;
    return this.#bus.publish(events);
  }

  /**
   * Injects a fault into the next `times` matching requests.
   * @example `sim.inject({ match: { method: 'GET', path: '/projects' }, times: 2, fault: { type: 'status', status: 503 } })`
   */
  inject(spec: FaultSpec): FaultHandle {
    return this.#faults.add(spec);
  }

  /**
   * Clears injected faults, the request log, the delivery log and rate-limit counters.
   * Data (projects, created webhooks, the clock) is kept.
   * @example `afterEach(() => sim.reset())`
   */
  reset(): void {
    this.#faults.clear();
    this.#requests.length = 0;
    this.#deliveries.length = 0;
    this.#limiter.reset();
  }
}

/**
 * Creates a simulator. See `SimulatorOptions` for every option.
 *
 * @example
 * ```ts
 * import { createSimulator } from 'seo-visibility/testing';
 * const sim = createSimulator({ seed: 42, keywordsPerProject: 100_000 });
 * ```
 */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  return new Simulator(options);
}
