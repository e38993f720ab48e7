/**
 * One seed of the iteration model: `for await` over a paged list while chaos changes it between
 * pages; the properties are checked into `verdicts`.
 */
import { SeoVisibilityError } from '../../../src/index.js';
import type { Simulator } from '../../../src/testing/index.js';
import { api429s, chaosAccount, journalText } from './account.js';
import { drive } from './clock.js';
import {
  EXACTLY_ONCE,
  FEW_429,
  NO_KEY,
  ONE_BUDGET_PER_KEY,
  PROTO_SAFE,
  RIDES_OUT_FAULTS,
  SETTLES,
  TYPED_ERRORS,
} from './properties.js';
import type { Verdicts } from './seeds.js';

/** A read of ~5 pages, each maybe retried after a fault and paced on a 10-per-10 s window, settles well within this. */
const BOUND_MS = 5 * 60_000;

export interface ListKind {
  name: string;
  /** Items of the list as the simulator holds them now (its truth), by key. */
  truth(sim: Simulator, projectId: string): string[];
  read(account: ReturnType<typeof chaosAccount>, projectId: string): AsyncIterable<Record<string, unknown>>;
  keyOf(item: Record<string, unknown>): string;
}

export const LISTS: ListKind[] = [
  {
    name: 'backlink anchors (paged with a total)',
    truth: (sim, p) => sim.data.backlinks(p).anchors.map((a) => a.anchor_text),
    read: (a, p) => a.client.backlinks.anchors(p, { limit: 100 }) as AsyncIterable<Record<string, unknown>>,
    keyOf: (item) => String(item['anchor_text']),
  },
  {
    name: 'content calendar (no total: stops at the first short page)',
    truth: (sim, p) => sim.data.content(p).map((c) => c.id),
    read: (a, p) => a.client.content.list(p, { limit: 100 }) as AsyncIterable<Record<string, unknown>>,
    keyOf: (item) => String(item['id']),
  },
];

export async function checkIterationSeed(seed: number, list: ListKind, verdicts: Verdicts): Promise<void> {
  const account = chaosAccount({ seed, listItems: 320 });
  const { sim } = account;
  const project = sim.data.listedProjects[0]?.id as string;
  const before = new Set(list.truth(sim, project));
  const yielded: string[] = [];
  const protoCarriers: Array<Record<string, unknown>> = [];
  const outcome = await drive(async () => {
    for await (const item of list.read(account, project)) {
      yielded.push(list.keyOf(item));
      if (Object.hasOwn(item, '__proto__')) protoCarriers.push(item);
    }
  }, BOUND_MS);
  const after = new Set(list.truth(sim, project));
  const touched = new Set(sim.chaos?.changes.filter((c) => c.op !== 'pad').flatMap((c) => c.key.split(' ⇄ ')) ?? []);
  const context = () => journalText(sim);

  verdicts.check(
    seed,
    SETTLES,
    outcome.kind !== 'hung',
    () => `still pending after ${BOUND_MS / 60_000} simulated minutes (${yielded.length} items yielded); ${context()}`,
  );
  if (outcome.kind === 'error') {
    const typed = outcome.error instanceof SeoVisibilityError;
    verdicts.check(seed, TYPED_ERRORS, typed, () => `${String(outcome.error)}; ${context()}`);
    account.outputs.add('thrown error', outcome.error);
    // Failing because the list changed under the read is allowed (detected drift); any other failure
    // came from a fault the retries should have ridden out.
    const detected = /chang|drift|shift|moved/i.test(
      `${(outcome.error as Error)?.name} ${(outcome.error as Error)?.message}`,
    );
    verdicts.check(
      seed,
      RIDES_OUT_FAULTS,
      detected,
      () => `the read failed after ${yielded.length} items: ${String(outcome.error).slice(0, 200)}; ${context()}`,
    );
  }
  if (outcome.kind === 'value') {
    const counts = new Map<string, number>();
    for (const key of yielded) counts.set(key, (counts.get(key) ?? 0) + 1);
    const stable = [...before].filter((k) => after.has(k) && !touched.has(k));
    const missed = stable.filter((k) => !counts.has(k));
    const doubled = [...counts].filter(([k, n]) => n > 1 && !touched.has(k)).map(([k]) => k);
    verdicts.check(
      seed,
      EXACTLY_ONCE,
      missed.length === 0 && doubled.length === 0,
      () =>
        `${missed.length} live items never yielded (e.g. ${missed.slice(0, 2).join(', ')}), ${doubled.length} yielded twice (e.g. ${doubled.slice(0, 2).join(', ')}), no error raised; ${context()}`,
    );
  }
  const leaks = account.outputs.leaksOf(account.key);
  verdicts.check(seed, NO_KEY, leaks.length === 0, () => `the key appears in: ${leaks.join(', ')}; ${context()}`);
  const rate = api429s(sim);
  verdicts.check(
    seed,
    FEW_429,
    rate.api429 <= 2 && rate.insideGateway === 0,
    () =>
      `${rate.api429} × 429 from the API, ${rate.insideGateway} requests sent inside a gateway 429's Retry-After (of ${rate.gateway429} gateway 429s), in ${rate.requests} requests; ${context()}`,
  );
  const polluted = protoCarriers.length;
  verdicts.check(
    seed,
    PROTO_SAFE,
    polluted === 0,
    () =>
      `${polluted} items carried an own "__proto__" key (Object.assign({}, item).isAdmin === ${String((Object.assign({}, protoCarriers[0]) as { isAdmin?: unknown }).isAdmin)}); ${context()}`,
  );
}

/**
 * Two clients with one key (as a web handler makes one per request) each send a burst of 15 calls
 * and read the first project's anchors and content at once, while chaos changes the lists and their values: the API's own 429s
 * must stay few, as for one client.
 */
export async function checkTwoClientsSeed(seed: number, verdicts: Verdicts): Promise<void> {
  const account = chaosAccount({ seed, listItems: 320, kinds: ['list-drift', 'hostile-values', 'hostile-names'] });
  const { sim } = account;
  const project = sim.data.listedProjects[0]?.id as string;
  // Each client reads both lists while a burst of 15 small calls is in flight, as handlers do.
  const read = async (client: typeof account.client) => {
    const burst = Promise.all(Array.from({ length: 15 }, () => client.projects.list({ limit: 1 })));
    for await (const _ of client.backlinks.anchors(project, { limit: 100 })) void _;
    for await (const _ of client.content.list(project, { limit: 100 })) void _;
    await burst;
  };
  // Two clients made per request, as a web handler does, with the documented remedy for one key's
  // budget (rateLimit.shareInProcess); without it the client warns of the trap (gate-registry tests).
  const outcome = await drive(() => Promise.all([read(account.another(true)), read(account.another(true))]), BOUND_MS);
  verdicts.check(
    seed,
    SETTLES,
    outcome.kind !== 'hung',
    () => `two clients still reading after ${BOUND_MS / 60_000} simulated minutes; ${journalText(sim)}`,
  );
  const rate = api429s(sim);
  verdicts.check(
    seed,
    ONE_BUDGET_PER_KEY,
    rate.api429 <= 2,
    () =>
      `${rate.api429} × 429 from the API in ${rate.requests} requests (a 10-per-10 s key, two clients); ${journalText(sim)}`,
  );
}
