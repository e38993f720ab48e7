import { resolveConfig } from './core/transport/resolve-options.js';
import { ApiPromise } from './core/response/api-promise.js';
import type { RateGate } from './options/rate-gate.js';
import { Transport } from './core/transport/transport.js';
import { type AnySchema, type CustomRequest, type CustomResult, customCall } from './core/calls/custom-request.js';
import { InvalidArgumentError } from './errors/client-errors.js';
import { isObject } from './internal/option-check.js';
import type { ClientOptions, RequestOptions } from './options/client-options.js';
import { Audits } from './resources/audits.js';
import { Backlinks } from './resources/backlinks.js';
import { Content } from './resources/content.js';
import { Projects } from './resources/projects.js';
import { Prompts } from './resources/prompts.js';
import { Rankings } from './resources/rankings.js';
import { Reports } from './resources/reports.js';
import { Webhooks } from './resources/webhooks/index.js';

/**
 * The options `withOptions` may change: everything except what identifies the key and its budget.
 *
 * @example
 * ```ts
 * const overrides: ClientOverrides = { timeout: 5_000, maxRetries: 0, headers: { 'x-job': 'nightly' } };
 * ```
 */
export type ClientOverrides = Omit<ClientOptions, 'apiKey' | 'baseUrl' | 'rateLimit' | 'dangerouslyAllowBrowser'>;

const FIXED = ['apiKey', 'baseUrl', 'rateLimit', 'dangerouslyAllowBrowser'] as const;
// Derived clients get their parent's gate through this map, not through a public parameter.
const inheritedGates = new WeakMap<ClientOptions, RateGate | undefined>();

/** One level of `withOptions` merging; anything but two plain objects is left for the schema to judge. */
function merge<T>(base: T | undefined, given: T | undefined): T | undefined {
  if (given === undefined) return base;
  return isObject(base) && isObject(given) ? ({ ...base, ...given } as T) : given;
}

/**
 * The client for the SEO and AI Visibility API v1. One instance per API key: it holds the key,
 * the throttle that follows the key's rate budget, and one namespace per resource.
 *
 * `apiKey` and `baseUrl` fall back to `SEO_VISIBILITY_API_KEY` and `SEO_VISIBILITY_BASE_URL`
 * where `process.env` exists. Every option is checked here: a bad value or an unknown key throws
 * `InvalidArgumentError` naming the option, before anything is sent.
 *
 * @example
 * ```ts
 * import { NotFoundError, SeoVisibilityClient } from 'seo-visibility';
 *
 * const client = new SeoVisibilityClient(); // SEO_VISIBILITY_API_KEY, SEO_VISIBILITY_BASE_URL
 * for await (const project of client.projects.list()) {
 *   // A project whose first audit has not completed yet answers 404 here.
 *   const latest = await client.audits.latest(project.id).catch((error: unknown) => {
 *     if (error instanceof NotFoundError) return undefined;
 *     throw error;
 *   });
 *   console.log(project.name, latest ? latest.critical_issues : 'no completed audit yet');
 * }
 * ```
 */
export class SeoVisibilityClient {
  /** Projects: list and create. */
  readonly projects: Projects;
  /** Keyword rankings: current positions and daily history. */
  readonly rankings: Rankings;
  /** AI visibility: prompts, their detail and per-model response history. */
  readonly prompts: Prompts;
  /** Site audits: list, latest and issues. */
  readonly audits: Audits;
  /** Backlinks: targets, summary, history, anchors and referring domains. */
  readonly backlinks: Backlinks;
  /** Content calendar: items, detail and preferences. */
  readonly content: Content;
  /** Shareable report links. */
  readonly reports: Reports;
  /** Webhook subscriptions. */
  readonly webhooks: Webhooks;
  readonly #transport: Transport;
  readonly #options: ClientOptions;
  readonly #gate: RateGate | undefined;

  constructor(options: ClientOptions = {}) {
    // The key lives only inside the transport's private fields: util.inspect, JSON.stringify and
    // error messages never see it.
    const config = resolveConfig(options, inheritedGates.get(options));
    this.#options = { ...options };
    this.#gate = config.gate;
    this.#transport = new Transport(config);
    const transport = this.#transport;
    this.projects = new Projects(transport);
    this.rankings = new Rankings(transport);
    this.prompts = new Prompts(transport);
    this.audits = new Audits(transport);
    this.backlinks = new Backlinks(transport);
    this.content = new Content(transport);
    this.reports = new Reports(transport);
    this.webhooks = new Webhooks(transport);
  }

  /**
   * A client with other options that shares this client's key, base URL and rate budget (its
   * throttle): calls from both never overdraw the key together. Options given replace this
   * client's; `headers`, `retryBackoff` and `hooks` merge one level deep. Checked like the
   * constructor's options; `apiKey`, `baseUrl`, `rateLimit` and `dangerouslyAllowBrowser` cannot
   * change (make a new client for another key or budget).
   *
   * @example
   * ```ts
   * const patient = client.withOptions({ timeout: 120_000, maxRetries: 5 });
   * const report = await patient.reports.create(projectId, { name: 'Q4' });
   * ```
   */
  withOptions(overrides: ClientOverrides): this {
    if (!isObject(overrides)) {
      throw new InvalidArgumentError('withOptions', 'expected an object of options such as { timeout: 5_000 }');
    }
    const fixed = FIXED.find((key) => key in overrides);
    if (fixed !== undefined) {
      throw new InvalidArgumentError(
        fixed,
        `cannot change in withOptions: the new client shares this client's key and rate budget; create a new SeoVisibilityClient instead`,
      );
    }
    const base = this.#options;
    const given = overrides as ClientOptions;
    const merged: ClientOptions = {
      ...base,
      ...given,
      headers: merge(base.headers, given.headers),
      retryBackoff: merge(base.retryBackoff, given.retryBackoff),
      hooks: merge(base.hooks, given.hooks),
    };
    inheritedGates.set(merged, this.#gate);
    const Client = this.constructor as new (options: ClientOptions) => this;
    return new Client(merged);
  }

  /**
   * Calls an endpoint the SDK does not wrap yet, through the same throttle, retries, errors and
   * key handling as every method. With a zod `schema`, the response's `data` is validated and
   * typed by it; without one, `data` is `unknown`. Lazy like every call: nothing is sent until
   * it is awaited.
   *
   * @example
   * ```ts no-run
   * import * as z from 'zod';
   * const Group = z.object({ id: z.string(), name: z.string() });
   * const groups = await client.request({ method: 'GET', path: `/projects/${projectId}/keyword-groups`, query: { limit: 10 }, schema: z.array(Group) });
   * const groupId = groups[0]?.id; // typed by the schema: { id: string; name: string }[]
   * const { response } = await client.request({ method: 'DELETE', path: `/projects/${projectId}/keyword-groups/${groupId}` }).withResponse();
   * ```
   */
  request<S extends AnySchema | undefined = undefined>(
    request: CustomRequest<S>,
    options?: RequestOptions,
  ): ApiPromise<CustomResult<S>> {
    return new ApiPromise(async () => this.#transport.request(customCall(request, options)));
  }

  /** The base URL requests go to (ends in `/api/v1`). */
  get baseUrl(): string {
    return this.#transport.baseUrl;
  }

  /** A safe summary for `JSON.stringify(client)`: no key, no internals. */
  toJSON(): { baseUrl: string } {
    return { baseUrl: this.baseUrl };
  }

  /** A safe summary for Node's `util.inspect` / `console.log(client)`. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `SeoVisibilityClient { baseUrl: '${this.baseUrl}' }`;
  }
}
