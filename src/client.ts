import { resolveConfig } from './config.js';
import { Transport } from './core/transport.js';
import type { ClientOptions } from './options.js';
import { Audits } from './resources/audits.js';
import { Backlinks } from './resources/backlinks.js';
import { Content } from './resources/content.js';
import { Projects } from './resources/projects.js';
import { Prompts } from './resources/prompts.js';
import { Rankings } from './resources/rankings.js';
import { Reports } from './resources/reports.js';
import { Webhooks } from './resources/webhooks/index.js';

/**
 * The client for the SEO and AI Visibility API v1. One instance per API key: it holds the key,
 * the throttle that follows the key's rate budget, and one namespace per resource.
 *
 * `apiKey` and `baseUrl` fall back to `SEO_VISIBILITY_API_KEY` and `SEO_VISIBILITY_BASE_URL`
 * where `process.env` exists. Bad options throw `InvalidArgumentError` here, naming the option.
 *
 * @example
 * ```ts
 * import { SeoVisibilityClient } from 'seo-visibility';
 *
 * const client = new SeoVisibilityClient({ apiKey: 'sk_live_…', baseUrl: 'https://api.example.com/api/v1' });
 * for await (const project of client.projects.list()) {
 *   const latest = await client.audits.latest(project.id);
 *   console.log(project.name, latest.critical_issues);
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

  constructor(options: ClientOptions = {}) {
    // The key lives only inside the transport's private fields: util.inspect, JSON.stringify and
    // error messages never see it.
    this.#transport = new Transport(resolveConfig(options));
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
