import { http, passthrough } from 'msw';
import { setupServer } from 'msw/node';
import { afterEach, beforeEach } from 'vitest';
import { createSimulator } from '../../../src/testing/index.js';
import type { Simulator, SimulatorOptions } from '../../../src/testing/index.js';
import { mswHandlers } from '../../../src/testing/msw.js';

/** A running form of the simulator: where to send requests, and how to stop. */
export interface Running {
  baseUrl: string;
  /** Lets real traffic to a loopback receiver through (msw would otherwise intercept it). */
  allow(url: string): void;
  stop(): Promise<void>;
}

/** One way of serving the simulator. The conformance suites run every scenario on each. */
export interface Form {
  name: string;
  start(sim: Simulator): Promise<Running>;
}

/** msw 3 in Node, intercepting the global fetch; unhandled requests are errors. */
const mswForm: Form = {
  name: 'msw',
  async start(sim) {
    const server = setupServer(...mswHandlers(sim));
    server.listen({ onUnhandledFrame: 'error' });
    return {
      baseUrl: sim.baseUrl,
      allow: (url) => server.use(http.all(`${url}*`, () => passthrough())),
      stop: async () => server.close(),
    };
  },
};

/** A real HTTP server on 127.0.0.1, reached over a socket. */
const httpForm: Form = {
  name: 'http',
  async start(sim) {
    const server = await sim.listen({ port: 0 });
    return { baseUrl: server.url, allow: () => {}, stop: () => server.close() };
  },
};

/** Both forms, for `describe.each(FORMS)`. */
export const FORMS: readonly Form[] = [mswForm, httpForm];

/** Per-test context: a fresh simulator served by `form`, plus a tiny fetch-based client. */
export interface Ctx {
  sim: Simulator;
  run: Running;
  api: Api;
  ro: Api;
}

/**
 * Registers beforeEach/afterEach that start a fresh simulator on `form` and stop it.
 * `options` may be a function so each test can get its own clock.
 */
export function useForm(form: Form, options: SimulatorOptions | (() => SimulatorOptions) = {}): Ctx {
  const ctx = {} as Ctx;
  beforeEach(async () => {
    ctx.sim = createSimulator(typeof options === 'function' ? options() : options);
    ctx.run = await form.start(ctx.sim);
    ctx.api = new Api(ctx.run.baseUrl, ctx.sim.keys.readWrite);
    ctx.ro = new Api(ctx.run.baseUrl, ctx.sim.keys.readOnly);
  });
  afterEach(async () => {
    await ctx.run.stop();
  });
  return ctx;
}

/** A parsed response. `body` is the JSON envelope (or raw text when not JSON). */
export interface Reply {
  status: number;
  // Tests read arbitrary envelope fields; a precise type per endpoint would add nothing here.
  body: any;
  text: string;
  headers: Headers;
}

/** Minimal client over plain fetch (the SDK is written in parallel; these tests must not use it). */
export class Api {
  constructor(
    readonly baseUrl: string,
    readonly key: string,
  ) {}

  get(path: string, query: Record<string, string | number> = {}): Promise<Reply> {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    return this.send('GET', qs ? `${path}?${qs}` : path);
  }

  async send(method: string, path: string, body?: unknown, init: RequestInit = {}): Promise<Reply> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      ...init,
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON (HTML page, truncated body): tests inspect `text`.
    }
    return { status: res.status, body: parsed, text, headers: res.headers };
  }
}
