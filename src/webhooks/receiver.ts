// The receiver: one implementation behind a Fetch-API handler (`fetch`) and a Node http / Express
// adapter (`node`, in node-adapter.ts). It fails closed: nothing reaches a handler unless the
// request came to the secret URL, as a JSON POST, within the size and time bounds, and parsed as an
// event not already taken. Handlers run after the answer, so the sender never waits for them.
import pRetry from 'p-retry';
import {
  InvalidArgumentError,
  KNOWN_EVENT_NAMES,
  type KnownWebhookEvent,
  type UnknownWebhookEvent,
  type WebhookEvent,
} from '../index.js';
import { readBoundedBody } from './body.js';
import { nodeAdapter, type NodeRequest, type NodeResponse } from './node-adapter.js';
import { isKnownWebhookEvent, parseWebhookEvent } from './parse-event.js';
import { memoryDedupeStore, type WebhookDedupeStore } from './dedupe-store.js';
import { webhookEventKey } from './event-key.js';
import { positiveInteger } from './positive-integer.js';
import { checkPath, checkSecrets, sameSecret } from './secret.js';

/** A name the receiver knows: the six documented events and the test delivery `webhook.test`. */
export type KnownWebhookEventType = KnownWebhookEvent['event'];

/**
 * A handler for one event name; it gets that event's own type. It runs after the delivery was
 * acknowledged; a throw (or a rejection) is retried, then reported to `onError`.
 *
 * @example
 * ```ts
 * const onAudit: WebhookHandler<'audit.completed'> = async (event) => console.log(event.data.pages_crawled);
 * ```
 */
export type WebhookHandler<N extends KnownWebhookEventType | 'unknown'> = (
  event: N extends 'unknown' ? UnknownWebhookEvent : Extract<KnownWebhookEvent, { event: N }>,
) => void | Promise<void>;

/** Retry of a failed handler, inside this process. */
export interface WebhookRetryOptions {
  /**
   * Runs of a handler before it is given up (1: no retry).
   * @default 3
   * @example
   * ```ts
   * createWebhookReceiver({ secret: generateWebhookSecret(), retry: { attempts: 5 } });
   * ```
   */
  attempts?: number;
  /**
   * Delay before the first retry, doubled for each next one (with jitter).
   * @default 1000
   * @example
   * ```ts
   * createWebhookReceiver({ secret: generateWebhookSecret(), retry: { delayMs: 250 } });
   * ```
   */
  delayMs?: number;
}

/** Options of {@link createWebhookReceiver}. */
export interface WebhookReceiverOptions {
  /**
   * The secret in the subscription URL (see {@link webhookUrl}); required: the receiver refuses to
   * start without one. During a rotation, give the new and the old one: both are accepted.
   * @example
   * ```ts
   * const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
   * createWebhookReceiver({ secret: [current, previous] }); // the new URL and the old one, until the rotation ends
   * ```
   */
  secret: string | readonly string[];
  /**
   * The path the secret is appended to: the receiver answers `POST {path}/{secret}` and nothing
   * else. The same path as the `base` given to {@link webhookUrl}.
   * @default '/'
   * @example
   * ```ts
   * createWebhookReceiver({ secret: generateWebhookSecret(), path: '/hooks/seo' }); // POST /hooks/seo/<secret>
   * ```
   */
  path?: string;
  /**
   * Largest body accepted, in bytes: a bigger one is refused with 413 as soon as the count passes
   * it (or at once, when its `content-length` says so), never buffered. Events are well under 1 KiB.
   * @default 65_536
   * @example
   * ```ts
   * createWebhookReceiver({ secret: generateWebhookSecret(), maxBodyBytes: 16_384 });
   * ```
   */
  maxBodyBytes?: number;
  /**
   * Time allowed for the whole body, in ms; a slower one (a slowloris) is refused with 408.
   * @default 10_000
   * @example
   * ```ts
   * createWebhookReceiver({ secret: generateWebhookSecret(), bodyTimeoutMs: 5_000 });
   * ```
   */
  bodyTimeoutMs?: number;
  /**
   * Where taken events are remembered, so a repeated delivery is acknowledged but not handled twice.
   * Default: in this process's memory; give {@link postgresDedupeStore} when several receivers
   * share the URL, or `false` to handle every delivery.
   * @example
   * ```ts
   * createWebhookReceiver({ secret: generateWebhookSecret(), dedupe: postgresDedupeStore(postgres) }); // postgres: a postgres:// URL
   * ```
   */
  dedupe?: WebhookDedupeStore | false;
  /**
   * How long a taken event is remembered, in ms.
   * @default 86_400_000 (one day)
   * @example
   * ```ts
   * createWebhookReceiver({ secret: generateWebhookSecret(), dedupeWindowMs: 3_600_000 });
   * ```
   */
  dedupeWindowMs?: number;
  /**
   * Time allowed to the dedupe store to record an event, in ms; past it the delivery is answered
   * 503 (the sender may retry), so a store that never answers (a frozen database, a pool with no
   * free connection) never holds the sender's connection open.
   * @default 5_000
   * @example
   * ```ts
   * createWebhookReceiver({ secret: generateWebhookSecret(), dedupe: postgresDedupeStore(postgres), storeTimeoutMs: 2_000 });
   * ```
   */
  storeTimeoutMs?: number;
  /**
   * Time allowed to one run of a handler, in ms; past it the run counts as failed (retried, then
   * reported to `onError`), so a handler that never settles cannot keep {@link WebhookReceiver.idle}
   * (a clean stop) waiting forever. The run itself is not stopped: make a long handler enqueue a job.
   * @default 900_000 (15 minutes)
   * @example
   * ```ts
   * createWebhookReceiver({ secret: generateWebhookSecret(), handlerTimeoutMs: 60_000 });
   * ```
   */
  handlerTimeoutMs?: number;
  /**
   * Retries of a failed handler (in this process; for retries that survive a restart, make the
   * handler enqueue a job and return).
   * @example
   * ```ts
   * createWebhookReceiver({ secret: generateWebhookSecret(), retry: { attempts: 1 } }); // no retry
   * ```
   */
  retry?: WebhookRetryOptions;
  /**
   * Called when a handler failed for good (after its retries). The event's key is then forgotten,
   * so a repeat of the delivery runs it again. Default: one line on `console.error` with the event
   * name and project.
   * @example
   * ```ts
   * createWebhookReceiver({ secret: generateWebhookSecret(), onError: (error, event) => console.error(event.event, event.project_id, error) });
   * ```
   */
  onError?: (error: unknown, event: WebhookEvent) => void;
  /**
   * Called when the dedupe store failed to record a delivery, or did not answer within
   * `storeTimeoutMs` (the delivery was answered 503, so the sender may send it again). Without it
   * the only trace of a store that refuses every claim (a role without privileges, a wrong schema)
   * would be the sender's 503s. Default: one line on `console.error` with the event name, project
   * and the store's message.
   * @example
   * ```ts
   * createWebhookReceiver({ secret: generateWebhookSecret(), onStoreError: (error, event) => console.error('dedupe store', event.event, error) });
   * ```
   */
  onStoreError?: (error: unknown, event: WebhookEvent) => void;
  /**
   * The clock for the dedupe window (ms since the epoch); tests inject one.
   * @default Date.now
   * @example
   * ```ts
   * createWebhookReceiver({ secret: generateWebhookSecret(), now: () => sim.now() });
   * ```
   */
  now?: () => number;
}

/**
 * What a Fetch-API platform passes beside the request that can keep work alive after the answer
 * (`ctx.waitUntil` in Cloudflare Workers, Vercel and Netlify).
 *
 * @example
 * ```ts
 * const kept: Promise<unknown>[] = [];
 * const ctx: WaitUntilContext = { waitUntil: (promise) => void kept.push(promise) };
 * ```
 */
export interface WaitUntilContext {
  /** Keeps the runtime alive until `promise` settles. */
  waitUntil(promise: Promise<unknown>): void;
}

/** The webhook receiver made by {@link createWebhookReceiver}. */
export interface WebhookReceiver {
  /**
   * Registers the handler of one event name, typed for that event; `'unknown'` receives the events
   * this SDK does not know (a name added after this version). One handler per name: a second
   * replaces the first. Returns the receiver, for chaining.
   *
   * @example
   * ```ts
   * const receiver = createWebhookReceiver({ secret: generateWebhookSecret(), path: '/hooks/seo' });
   * receiver
   *   .on('audit.completed', async (event) => refreshAudit(event.project_id, event.data.audit_id))
   *   .on('unknown', (event) => console.warn('new event', event.event));
   * ```
   */
  on<N extends KnownWebhookEventType | 'unknown'>(name: N, handler: WebhookHandler<N>): WebhookReceiver;
  /**
   * The Fetch-API handler: `Request` in, `Response` out (Workers, Deno, Bun, Hono, Next.js route
   * handlers). Handlers start after the response is returned; an argument after the request with a
   * `waitUntil` method (the Workers `ctx`) keeps the runtime alive for them.
   *
   * @example
   * ```ts
   * const receiver = createWebhookReceiver({ secret: generateWebhookSecret(), path: '/hooks/seo' });
   * // Workers: export default { fetch: receiver.fetch }; Deno: Deno.serve(receiver.fetch); Next.js: export const POST = receiver.fetch;
   * const answer = await receiver.fetch(new Request('https://example.com/hooks/seo/not-the-secret', { method: 'POST' }));
   * console.log(answer.status); // 404
   * ```
   */
  fetch(request: Request, ...context: unknown[]): Promise<Response>;
  /**
   * The Node `http` / Express adapter: `http.createServer(receiver.node)`, or `app.use(receiver.node)`
   * before any body parser (with Express's `next`, requests for other paths go on to your routes).
   *
   * @example
   * ```ts
   * import { createServer } from 'node:http';
   * const receiver = createWebhookReceiver({ secret: generateWebhookSecret(), path: '/hooks/seo' });
   * const server = createServer(receiver.node).listen(0, '127.0.0.1');
   * server.close();
   * ```
   */
  node(request: NodeRequest, response: NodeResponse, next?: (error?: unknown) => void): void;
  /**
   * Resolves when every handler started so far has finished (retries included): for tests, and for
   * a clean stop (close the server, then `await receiver.idle()`).
   *
   * @example
   * ```ts
   * import { createServer } from 'node:http';
   * const receiver = createWebhookReceiver({ secret: generateWebhookSecret(), path: '/hooks/seo' });
   * const server = createServer(receiver.node).listen(0, '127.0.0.1');
   * // On SIGTERM: stop taking deliveries, then let the acknowledged ones finish.
   * server.close();
   * await receiver.idle();
   * ```
   */
  idle(): Promise<void>;
  /**
   * Runs again the handlers of events that were acknowledged but whose handlers never finished (the
   * process was killed): only with a durable dedupe store ({@link postgresDedupeStore}); resolves
   * with how many. Call it at start. Events claimed less than `olderThanMs` ago (default one
   * minute) are left to the receiver that may still be handling them; 0 takes all (right when the
   * handlers are idempotent, as reads are).
   *
   * @example
   * ```ts
   * const receiver = createWebhookReceiver({ secret: generateWebhookSecret(), dedupe: postgresDedupeStore(postgres) });
   * console.log(await receiver.recover(), 'events recovered');
   * ```
   */
  recover(options?: { olderThanMs?: number }): Promise<number>;
}

// Names `on` accepts: a typo ('audit.complete') fails at registration, not silently at delivery.
const HANDLER_NAMES: ReadonlySet<string> = new Set([...KNOWN_EVENT_NAMES, 'webhook.test', 'unknown']);

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body === '' ? null : body, {
    status,
    headers: body === '' ? headers : { 'content-type': 'text/plain; charset=utf-8', ...headers },
  });

/** `work`, or the error `late` makes once `ms` passed without it settling (a timer that never outlives it). */
async function within<T>(work: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

const isWaitUntil = (value: unknown): value is WaitUntilContext =>
  typeof value === 'object' && value !== null && typeof (value as WaitUntilContext).waitUntil === 'function';

/**
 * Makes a webhook receiver. It answers only `POST {path}/{secret}` with a JSON body within the
 * bounds; every other request is refused before any handler runs:
 *
 * | Request | Answer |
 * |---|---|
 * | another path, or the path with a missing or wrong secret | 404 (the same: the URL is the secret) |
 * | the secret URL with another method | 405, `Allow: POST` |
 * | a content type other than `application/json`, or a `content-encoding` (compressed) | 415 |
 * | a body over `maxBodyBytes` | 413, while it streams |
 * | a body slower than `bodyTimeoutMs` | 408 |
 * | a body that is not an event | 400 |
 * | the dedupe store failed, or did not answer within `storeTimeoutMs` | 503 (the sender may retry) |
 * | an event, new or repeated | 202; handlers run after, once per event |
 *
 * @example
 * ```ts no-run
 * import { createServer } from 'node:http';
 * import { createWebhookReceiver } from 'seo-visibility/webhooks';
 *
 * const receiver = createWebhookReceiver({ secret: process.env.WEBHOOK_SECRET!, path: '/hooks/seo' })
 *   .on('keywords.updated', async (event) => console.log(event.data.keywords_updated, 'keywords'))
 *   .on('unknown', (event) => console.warn('unhandled', event.event));
 * createServer(receiver.node).listen(8787);
 * ```
 */
export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError('options', 'expected { secret, … }: the receiver refuses to start without a secret');
  const secrets = checkSecrets(options.secret);
  const path = checkPath(options.path ?? '/');
  const limits = {
    maxBytes: positiveInteger('maxBodyBytes', options.maxBodyBytes, 65_536),
    timeoutMs: positiveInteger('bodyTimeoutMs', options.bodyTimeoutMs, 10_000),
  };
  const dedupe = options.dedupe === undefined ? memoryDedupeStore() : options.dedupe;
  if (
    dedupe !== false &&
    (typeof dedupe !== 'object' ||
      dedupe === null ||
      typeof dedupe.claim !== 'function' ||
      typeof dedupe.release !== 'function')
  ) {
    throw new InvalidArgumentError(
      'dedupe',
      'expected a dedupe store (memoryDedupeStore(), postgresDedupeStore(…)) or false',
    );
  }
  const windowMs = positiveInteger('dedupeWindowMs', options.dedupeWindowMs, 86_400_000);
  const storeTimeoutMs = positiveInteger('storeTimeoutMs', options.storeTimeoutMs, 5_000);
  const handlerTimeoutMs = positiveInteger('handlerTimeoutMs', options.handlerTimeoutMs, 900_000);
  const attempts = positiveInteger('retry.attempts', options.retry?.attempts, 3);
  const delayMs = positiveInteger('retry.delayMs', options.retry?.delayMs, 1000);
  const now = options.now ?? Date.now;
  const onError =
    options.onError ??
    ((error: unknown, event: WebhookEvent) => {
      console.error(
        `seo-visibility/webhooks: the ${JSON.stringify(event.event)} handler failed for project ${JSON.stringify(event.project_id)}: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  const onStoreError =
    options.onStoreError ??
    ((error: unknown, event: WebhookEvent) => {
      console.error(
        `seo-visibility/webhooks: the dedupe store could not record a ${JSON.stringify(event.event)} event for project ${JSON.stringify(event.project_id)} (answered 503): ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  const handlers = new Map<string, (event: never) => void | Promise<void>>();
  const pending = new Set<Promise<void>>();

  /** Whether `pathname` is `{path}/{one of the secrets}`; compares every secret, in constant time. */
  async function authorized(pathname: string): Promise<boolean> {
    const prefix = `${path}/`;
    if (!pathname.startsWith(prefix)) return false;
    const candidate = pathname.slice(prefix.length);
    let match = false;
    for (const secret of secrets) match = (await sameSecret(candidate, secret)) || match;
    return match;
  }

  async function run(event: WebhookEvent, key: string | undefined): Promise<void> {
    const handler = handlers.get(isKnownWebhookEvent(event) ? event.event : 'unknown');
    try {
      const once = async () =>
        within(
          Promise.resolve(handler?.(event as never)),
          handlerTimeoutMs,
          () => new Error(`the handler did not settle within handlerTimeoutMs of ${handlerTimeoutMs} ms`),
        );
      if (handler) await pRetry(once, { retries: attempts - 1, minTimeout: delayMs, factor: 2, randomize: true });
      // Done: a durable store forgets the body it kept for a restart.
      if (key !== undefined && dedupe) await dedupe.handled?.(key).catch(() => undefined);
    } catch (error) {
      // Given up: forget the key, so a repeated delivery of this event is handled again.
      if (key !== undefined && dedupe) await dedupe.release(key).catch(() => undefined);
      try {
        onError(error, event);
      } catch {
        // A failing onError must not become an unhandled rejection.
      }
    }
  }

  function schedule(event: WebhookEvent, key: string | undefined, context: unknown[]): void {
    // A macrotask: the caller has the response (and Node has written it) before a handler starts.
    const work = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => run(event, key));
    pending.add(work);
    void work.finally(() => pending.delete(work));
    const platform = context.find(isWaitUntil);
    platform?.waitUntil(work);
  }

  async function handle(request: Request, ...context: unknown[]): Promise<Response> {
    const url = new URL(request.url);
    if (!(await authorized(url.pathname))) return text(404, '');
    if (request.method !== 'POST') return text(405, 'Only POST is accepted here.', { allow: 'POST' });
    const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') return text(415, 'Expected content-type: application/json.');
    // The bytes are read as they come (a decompressed body would escape the size bound): say so, not "not JSON".
    const encoding = request.headers.get('content-encoding')?.trim().toLowerCase();
    if (encoding && encoding !== 'identity')
      return text(415, 'Expected a body without content-encoding (send it uncompressed).');
    const body = await readBoundedBody(request, limits);
    // No connection header here (hop-by-hop: Deno and Workers own it); the Node adapter closes a connection whose body was left unread.
    if (!(body instanceof Uint8Array)) return text(body.status, `Refused: ${body.reason}.`);
    let event: WebhookEvent;
    try {
      event = parseWebhookEvent(body);
    } catch (error) {
      // Past the secret, so the sender is the service (or holds the URL): say what was wrong.
      return text(400, error instanceof Error ? error.message : 'Not a webhook event.');
    }
    let key: string | undefined;
    if (dedupe) {
      key = await webhookEventKey(event);
      let fresh: boolean;
      const claim = dedupe.claim(key, now() + windowMs, now(), new TextDecoder().decode(body));
      try {
        fresh = await within(claim, storeTimeoutMs, () => new Error('the dedupe store did not answer'));
      } catch (error) {
        try {
          onStoreError(error, event);
        } catch {
          // A failing reporter changes nothing: the answer is the 503.
        }
        // A claim that lands after the 503 would make the sender's retry a "repeat" never handled: undo it.
        const claimKey = key;
        claim.then((won) => (won ? dedupe.release(claimKey) : undefined)).catch(() => undefined);
        return text(503, 'The receiver could not record the event; send it again.');
      }
      if (!fresh) return text(202, '');
    }
    schedule(event, key, context);
    return text(202, '');
  }

  const receiver: WebhookReceiver = {
    on(name, handler) {
      if (typeof name !== 'string' || !HANDLER_NAMES.has(name))
        throw new InvalidArgumentError(
          'name',
          `expected one of ${[...HANDLER_NAMES].join(', ')}, got ${typeof name === 'string' ? JSON.stringify(name) : typeof name}`,
        );
      if (typeof handler !== 'function')
        throw new InvalidArgumentError(
          'handler',
          `expected a function for ${JSON.stringify(name)}, got ${typeof handler}`,
        );
      handlers.set(name, handler as (event: never) => void);
      return receiver;
    },
    fetch: handle,
    node: (request, response, next) => nodeAdapter(handle, path, request, response, next),
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    async recover(options = {}) {
      if (dedupe === false || dedupe.takeUnhandled === undefined) return 0;
      const olderThanMs = options.olderThanMs ?? 60_000;
      if (typeof olderThanMs !== 'number' || !(olderThanMs >= 0))
        throw new InvalidArgumentError('olderThanMs', `expected a number of ms ≥ 0, got ${String(olderThanMs)}`);
      const taken = await dedupe.takeUnhandled(now() - olderThanMs, now());
      for (const { key, body } of taken) {
        let event: WebhookEvent;
        try {
          event = parseWebhookEvent(body);
        } catch {
          await dedupe.release(key).catch(() => undefined);
          continue;
        }
        schedule(event, key, []);
      }
      return taken.length;
    },
  };
  return receiver;
}
