import type { Outcome } from '../outcome.js';
import type { Store } from '../store.js';
import { Draw } from './draw.js';
import { type DriftChange, driftList, listOf, padLists, padProjects } from './drift.js';
import type { ChaosKind } from './kinds.js';
import type { ResolvedChaos } from './options.js';
import {
  HOSTILE_NAMES,
  TERMINAL_TEXTS,
  addHostileNames,
  addHostileValues,
  addTypeChanging,
  recordsOf,
  serialize,
  widen,
} from './records.js';
import { bomb, cutBody, gateway429, serverError, slowBody } from './responses.js';

/** One thing chaos did, in order. @example `{ run: 1, kind: 'gateway-429', at: 'GET /projects #1', detail: 'Retry-After: 2' }` */
export interface ChaosEvent {
  /** The run it happened in (`sim.chaos.nextRun()` starts the next). */
  run: number;
  /** Which kind of chaos it was. */
  kind: ChaosKind;
  /** The request (`GET /projects?offset=500 #2`: the second attempt of that URL in this run), or `run start`. */
  at: string;
  /** What it did. */
  detail: string;
}

/** A request as chaos sees it. @internal */
export interface ChaosRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  requestId: string;
  /** The caller's key when it is a valid one. */
  key: string | undefined;
  /** The simulator's clock (ms). */
  now: number;
}

/** Faults that end a request before or instead of the API's answer. */
const REQUEST_FAULTS: readonly ChaosKind[] = ['gateway-429', 'server-error', 'drop', 'cut-body', 'slow-body', 'bomb'];
/** Records with 1,700 fields: more than PostgreSQL's 1,600 columns. */
const WIDE_FIELDS = 1_700;

/**
 * The seeded chaos mode of one simulator: `before` may answer a request instead of the API (a
 * gateway 429, a 5xx, a dropped connection) and may change the truth between a list's pages;
 * `after` may change the API's answer on its way out (skewed clock, hostile names and values, a
 * field that changes type, an echoed key, a cut, slow or bombed body). Reached as `sim.chaos`.
 *
 * @example
 * ```ts
 * const sim = createSimulator({ chaos: { seed: 42 } });
 * await client.projects.list();
 * sim.chaos?.nextRun();
 * console.log(sim.chaos?.journal.length, sim.chaos?.skewMs);
 * ```
 */
export class ChaosController {
  /** The resolved options (defaults applied). @internal */
  readonly options: ResolvedChaos;
  /** Everything chaos did, in order (live array). @example `sim.chaos?.journal.filter((e) => e.kind === 'list-drift')` */
  readonly journal: ChaosEvent[] = [];
  /** Changes made to the simulator's truth (live array): items deleted, inserted, reordered. @example `sim.chaos?.changes.filter((c) => c.op === 'delete')` */
  readonly changes: Array<DriftChange & { run: number }> = [];
  readonly #store: Store;
  readonly #attempts = new Map<string, number>();
  #run = 1;
  #draw: Draw;
  /** Until when (simulator ms) the gateway answers every request with a 429. */
  #gatewayUntil = 0;

  /** @internal */
  constructor(options: ResolvedChaos, store: Store) {
    this.options = options;
    this.#store = store;
    this.#draw = new Draw(options.seed, this.#run);
    for (const change of [...padLists(store, options.listItems), ...padProjects(store, options.listProjects)])
      this.changes.push({ ...change, run: 0 });
  }

  /** The current run's number (1 at the start). @example `sim.chaos?.run // 1` */
  get run(): number {
    return this.#run;
  }

  /** How far the server's clock is off in this run, in ms (positive: ahead). @example `sim.chaos?.skewMs // -120000` */
  get skewMs(): number {
    if (!this.#on('skew') || this.options.maxSkewMs < 60_000) return 0;
    const sign = this.#draw.pick([0, 1, -1], 'skew-sign');
    return sign * 60_000 * this.#draw.int(1, Math.floor(this.options.maxSkewMs / 60_000), 'skew-minutes');
  }

  /**
   * Starts the next run: new per-run draws (skew, hostile names, wide records), attempt counts
   * reset, and, with `list-drift`, the truth changes as it does between two runs of a copy.
   * @example `sim.chaos?.nextRun()`
   */
  nextRun(): void {
    this.#run++;
    this.#draw = new Draw(this.options.seed, this.#run);
    this.#attempts.clear();
    if (!this.#on('list-drift')) return;
    const listed = this.#store.listedProjects();
    for (const list of ['anchors', 'content', 'projects'] as const) {
      if (!this.#draw.chance(0.5, 'run-drift', list)) continue;
      const project = list === 'projects' ? '' : (this.#draw.pick(listed, 'run-drift-project', list)?.record.id ?? '');
      this.#drift(list, project, 'run start', `run-${list}`);
    }
  }

  /** May answer instead of the API, or change the truth before a list's page is read. @internal */
  async before(req: ChaosRequest): Promise<Outcome | undefined> {
    const at = this.#at(req, true);
    const attempt = this.#attempts.get(urlOf(req)) ?? 1;
    const list = req.method === 'GET' ? listOf(req.path) : undefined;
    const offset = Number(req.query.get('offset') ?? 0);
    // Between two pages of a list: one to three changes, so a delete and an insert can leave the
    // total as it was (the shift a total check cannot see).
    if (
      list &&
      offset > 0 &&
      attempt === 1 &&
      this.#on('list-drift') &&
      this.#draw.chance(0.6, 'page-drift', urlOf(req))
    ) {
      const changes = this.#draw.int(1, 3, 'page-drift-count', urlOf(req));
      for (let i = 0; i < changes; i++) this.#drift(list.list, list.projectId, at, `page-${urlOf(req)}-${i}`);
    }
    if (this.#on('gateway-429') && req.now < this.#gatewayUntil) {
      // A CDN's limit holds for every request until its Retry-After has passed: a client that
      // honours only the one call it was told about sends into it again.
      const seconds = Math.ceil((this.#gatewayUntil - req.now) / 1000);
      this.#note('gateway-429', at, `inside the gateway's window: Retry-After: ${seconds}`);
      return { kind: 'response', response: gateway429(seconds) };
    }
    const fault = this.#fault(req, attempt);
    if (fault === 'gateway-429') {
      const seconds = this.#draw.int(1, 3, 'retry-after', at);
      this.#gatewayUntil = req.now + seconds * 1000;
      this.#note('gateway-429', at, `Retry-After: ${seconds}`);
      return { kind: 'response', response: gateway429(seconds) };
    }
    if (fault === 'server-error') {
      const message = this.#on('hostile-values')
        ? `Internal error ${this.#draw.pick(TERMINAL_TEXTS, 'error-text', at)}`
        : 'Internal server error';
      const response = serverError(this.#draw, at, req.requestId, message);
      this.#note('server-error', at, `${response.status} ${response.headers.get('content-type')}`);
      return { kind: 'response', response };
    }
    if (fault === 'drop') {
      this.#note('drop', at, 'connection dropped');
      return { kind: 'drop' };
    }
    return undefined;
  }

  /** May change the API's answer on its way out. @internal */
  async after(req: ChaosRequest, outcome: Outcome): Promise<Outcome> {
    if (outcome.kind === 'drop') return outcome;
    const at = this.#at(req, false);
    const attempt = this.#attempts.get(urlOf(req)) ?? 1;
    const { response } = outcome;
    const headers = new Headers(response.headers);
    const skew = this.skewMs;
    headers.set('date', new Date(req.now + skew).toUTCString());
    const echo = req.key !== undefined && this.#on('key-echo') && this.#draw.chance(this.options.rate, 'echo', at);
    if (echo) {
      headers.set('x-echo-authorization', `Bearer ${req.key}`);
      headers.set('x-request-id', `req_${req.key}`);
      this.#note('key-echo', at, 'key in x-echo-authorization, x-request-id and meta.request_id');
    }
    let text = await response.text();
    if ((headers.get('content-type') ?? '').includes('json'))
      text = this.#rewrite(text, req, at, { skew, echo, ok: response.ok });
    const fault = this.#fault(req, attempt);
    if (fault === 'cut-body') {
      const declared = this.#draw.chance(0.5, 'cut-declared', at);
      const cutAt = Math.floor(this.#draw.unit('cut-at', at) * text.length);
      this.#note(
        'cut-body',
        at,
        `cut at byte ${cutAt} of ${text.length}, ${declared ? 'with' : 'without'} Content-Length`,
      );
      return { kind: 'response', response: cutBody(response.status, headers, text, cutAt, declared) };
    }
    if (fault === 'slow-body') {
      const pauses = Array.from({ length: this.#draw.int(1, 4, 'slow-chunks', at) }, (_, i) =>
        Math.floor(this.#draw.unit('slow-pause', at, i) * this.options.slowChunkMs),
      );
      this.#note('slow-body', at, `${pauses.length + 1} chunks, pauses ${pauses.join(', ')} ms`);
      return { kind: 'response', response: slowBody(response.status, headers, text, pauses) };
    }
    if (fault === 'bomb') {
      this.#note('bomb', at, `gzip inflating to ${this.options.bombBytes} bytes`);
      return { kind: 'response', response: await bomb(this.options.bombBytes) };
    }
    headers.delete('content-length');
    return {
      kind: 'response',
      response: new Response(text, { status: response.status, statusText: response.statusText, headers }),
    };
  }

  /** The JSON body with this run's and this request's changes. */
  #rewrite(text: string, req: ChaosRequest, at: string, how: { skew: number; echo: boolean; ok: boolean }): string {
    let body: {
      data?: unknown;
      meta?: { request_id?: string; rate_limit?: { reset?: number }; pagination?: { limit?: number; offset?: number } };
    };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      return text;
    }
    if (typeof body !== 'object' || body === null) return text;
    const meta = body.meta;
    if (meta?.rate_limit && typeof meta.rate_limit.reset === 'number' && how.skew !== 0)
      meta.rate_limit.reset += Math.round(how.skew / 1000);
    if (meta && how.echo) meta.request_id = `req_${req.key}`;
    const records = how.ok ? recordsOf(body.data) : [];
    if (records.length > 0) {
      const names = this.#runNames();
      if (names.length > 0) addHostileNames(records, names);
      if (this.#on('wide-record') && this.#draw.chance(0.3, 'wide-run') && records[0]) {
        widen([records[0]], WIDE_FIELDS);
        this.#note('wide-record', at, `${WIDE_FIELDS} extra fields on the first record`);
      }
      if (names.length > 0) this.#note('hostile-names', at, names.join(', '));
      if (this.#on('type-change') && Array.isArray(body.data)) {
        const limit = Number(req.query.get('limit') ?? 0) || records.length || 1;
        const page = Math.floor(Number(req.query.get('offset') ?? 0) / limit) + this.#run;
        addTypeChanging(records, page);
        this.#note(
          'type-change',
          at,
          `chaos_metric is ${['a number', '"n/a"', 'an object', '2^53 + 1', 'a boolean'][page % 5]}`,
        );
      }
      if (this.#on('hostile-values') && this.#draw.chance(this.options.rate, 'values', at)) {
        const changed = addHostileValues(records, this.#draw, at);
        if (changed > 0) this.#note('hostile-values', at, `${changed} values`);
      }
    }
    return serialize(body);
  }

  /** This run's hostile field names (none in about half the runs). */
  #runNames(): string[] {
    if (!this.#on('hostile-names') || !this.#draw.chance(0.5, 'names-run')) return [];
    return HOSTILE_NAMES.filter((name) => this.#draw.chance(0.4, 'name', name));
  }

  /** The request-level fault this attempt gets, if any (the same answer in `before` and `after`). */
  #fault(req: ChaosRequest, attempt: number): ChaosKind | undefined {
    if (attempt > this.options.faultyAttempts) return undefined;
    const kinds = REQUEST_FAULTS.filter((k) => this.#on(k));
    const id = `${urlOf(req)} #${attempt}`;
    if (kinds.length === 0 || !this.#draw.chance(this.options.rate, 'fault', id)) return undefined;
    return this.#draw.pick(kinds, 'fault-kind', id);
  }

  #drift(list: DriftChange['list'], projectId: string, at: string, salt: string): void {
    const change = driftList(this.#store, this.#draw, list, projectId, salt);
    if (!change) return;
    this.changes.push({ ...change, run: this.#run });
    this.#note('list-drift', at, `${change.list}: ${change.op} ${change.key}`);
  }

  /** `GET /projects?offset=500 #2`; `count` moves the attempt counter (once per request, in `before`). */
  #at(req: ChaosRequest, count: boolean): string {
    const url = urlOf(req);
    const n = (this.#attempts.get(url) ?? 0) + (count ? 1 : 0);
    if (count) this.#attempts.set(url, n);
    return `${url} #${n}`;
  }

  #on(kind: ChaosKind): boolean {
    return this.options.kinds.has(kind);
  }

  #note(kind: ChaosKind, at: string, detail: string): void {
    this.journal.push({ run: this.#run, kind, at, detail });
  }
}

/** Method, path and sorted query: one request's identity within a run. */
function urlOf(req: ChaosRequest): string {
  const query = [...req.query]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return `${req.method} ${req.path}${query ? `?${query}` : ''}`;
}
