/**
 * The fleet chaos model (issue 22 §6), for test/reliability/fleetchaos.system.test.ts and its
 * reliability rows: several simulated accounts, each under its own chaos seed, behind one loopback HTTP server;
 * 2-3 worker processes syncing them into one PostgreSQL (pg-boss queue, one warehouse schema);
 * workers SIGKILLed at seeded moments (when the accounts have served a seeded number of requests)
 * and replaced at once, a bounded number of times within a bounded window; then the fleet is let
 * finish, within a bound.
 *
 * After the run: every account completed (within a bounded number of runs, before any worker's
 * bound ran out); its tables equal its simulator's truth (no row lost or stored twice, no live row
 * marked deleted, every deleted one marked, a whole snapshot); no two workers held one account at
 * once; no API key in any row of any table (the warehouse and pg-boss's schema) nor in anything a
 * worker printed; the API's own 429s stay bounded; every failed run failed typed.
 *
 * Replay: the chaos each account meets is a function of its seed and the run number, and the kill
 * moments are request counts drawn from the seed; which worker serves which account is the queue's
 * doing, so a replay meets the same faults and kills, interleaved as the machine schedules them.
 */
import type pg from 'pg';
import { createFleet } from '../../../src/fleet/index.js';
import { CHAOS_KIND_NAMES, createSimulator, listenAccounts } from '../../../src/testing/index.js';
import { hash32 } from '../../../src/testing/data/rng.js';
import { FAST_QUEUE, holds, startWorker, type WorkerArgs, type WorkerProcess } from '../../fleet/support/fleet-env.js';
import { api429s, journalText } from './account.js';
import { checkHeld } from './copy-checks.js';
import { doubledRows, tablesHolding } from './pg-scan.js';
import { pgCopyOf, pgSnapshotCounts } from './pg-truth.js';
import {
  COMPLETES,
  DELETES_MARKED,
  FEW_429,
  NO_DOUBLE,
  NO_KEY,
  NO_LIVE_MARKED,
  NONE_LOST,
  ONE_HOLDER,
  SETTLES,
  SNAPSHOT_COUNTS,
  TYPED_ERRORS,
} from './properties.js';
import type { Property, Verdicts } from './seeds.js';
import { touchedSince, truthOf } from './truth.js';

/** Every property the model checks, for a report of which held. */
export const FLEET_PROPERTIES: readonly Property[] = [
  COMPLETES,
  SETTLES,
  NONE_LOST,
  NO_DOUBLE,
  NO_LIVE_MARKED,
  DELETES_MARKED,
  SNAPSHOT_COUNTS,
  ONE_HOLDER,
  NO_KEY,
  FEW_429,
  TYPED_ERRORS,
];

/** The accounts; `tight` has a "day" of 15 requests in 10 s, so it stops for its budget and is resumed at the reset, under skewed clocks and kills. */
export const ACCOUNTS = ['acme', 'globex', 'initech', 'tight'];
/** SIGKILLs per seed at most (by default; 3 in heavy mode, 2 in the fast set: each costs a heartbeat's lapse, ~12 s), each at a seeded count of requests served in [KILL_FROM, KILL_FROM + KILL_SPAN): an account serves ~20 requests a run here. */
export const KILLS = process.env.CHAOS_RUNS !== undefined ? 3 : 2;
const KILL_FROM = 3;
const KILL_SPAN = 50;
/** Kills land only this long after the fleet starts; after it, the fleet is let finish. */
const KILL_WINDOW_MS = 40_000;
/** A worker still running this long after it started is SIGKILLed and reported as hung. */
const WORKER_BOUND_MS = 150_000;
/** Runs (starts) one account may take, given the kills: one, one per kill, and pg-boss's retries (retryLimit 5) of faulted runs. */
const maxRuns = (kills: number) => 1 + kills + 5;
/** The API's own 429s per account (the chaos mode's gateway 429s are not the client's doing). */
const MAX_API_429 = 0;
/** Requests an account may send inside a gateway 429's Retry-After: those already in flight (the sync's concurrency), as in sync-model.ts. */
const GATEWAY_SLACK = 4;
const DAY_MS = 86_400_000;
// Each key's own budget, compressed as in test/fleet: 20 a second, 1,000 a minute.
const WINDOWS = [
  { limit: 20, intervalMs: 1_000 },
  { limit: 1_000, intervalMs: 60_000 },
];
const TIGHT = [
  { limit: 20, intervalMs: 1_000 },
  { limit: 15, intervalMs: 10_000 },
];
const windowsOf = (id: string) => (id === 'tight' ? TIGHT : WINDOWS);
/**
 * Every kind, the bomb included (only a real HTTP client inflates it); the 1,700-field record only
 * in heavy mode (`CHAOS_RUNS`), as in the kill test: it costs seconds of a loaded machine per table.
 */
const KINDS = CHAOS_KIND_NAMES.filter((k) => process.env.CHAOS_RUNS !== undefined || k !== 'wide-record');
const DATASETS = ['projects.list', 'rankings.list', 'backlinks.anchors', 'content.list'];
/** Names of errors that are not the SDK's typed ones: a failure that reaches the fleet as one is a defect. */
const UNTYPED = new Set(['TypeError', 'SyntaxError', 'ReferenceError', 'RangeError']);

type Worker = WorkerProcess & { killedAt?: number; killedByTest?: boolean };

/** Where the fleet runs: the PostgreSQL (its URL and a pool on it) and the bundled worker script (fleet-env's `bundleWorker`). */
export interface FleetChaosEnv {
  postgresUrl: string;
  pool: pg.Pool;
  script: string;
}

/** What one seed ran, for the report. */
export interface FleetFigures {
  /** Kill moments that landed (each one worker, or every worker in a crash). */
  kills: number;
  /** Worker processes SIGKILLed. */
  killed: number;
  /** Kill moments that were crashes of every worker. */
  crashes: number;
  workers: number;
  runs: number;
  requests: number;
}

/**
 * Runs one seed's schedule (accounts, workers, kills) and records every broken property in
 * `verdicts`. `kills`: how many SIGKILLs at most ({@link KILLS} by default).
 */
export async function checkFleetSeed(
  seed: number,
  verdicts: Verdicts,
  env: FleetChaosEnv,
  kills_ = KILLS,
): Promise<FleetFigures> {
  const { pool, script } = env;
  const sims = ACCOUNTS.map((id, i) =>
    createSimulator({
      seed: 1 + ((seed + i) % 97),
      keywordsPerProject: 20,
      // Seeded a day ago and moved on a day to the real clock (as test/fleet does): the rate windows'
      // resets are real times the workers can wait for.
      now: () => Date.now() - DAY_MS,
      rateLimit: { windows: windowsOf(id) },
      // Each account under its own chaos seed; `CHAOS_FLEET_RATE` (0-1) raises the share of faulted requests for a harder run.
      chaos: {
        seed: seed + i,
        rate: Number(process.env.CHAOS_FLEET_RATE) || 0.15,
        listItems: 1_010,
        kinds: KINDS,
        bombBytes: 32 * 1024 * 1024,
        slowChunkMs: 200,
      },
    }),
  );
  for (const sim of sims) await sim.advance(DAY_MS);
  const server = await listenAccounts(sims);
  const simOf = new Map(ACCOUNTS.map((id, i) => [id, sims[i]!]));
  const keys = sims.map((s) => s.keys.readOnly);
  const schema = `fleet_chaos_${seed}`;
  const queue = { ...FAST_QUEUE, name: `fleet-chaos-${seed}` };
  const args: WorkerArgs = {
    postgres: env.postgresUrl,
    accounts: Object.fromEntries(
      ACCOUNTS.map((id, i) => [
        id,
        { apiKey: keys[i]!, baseUrl: server.url, windows: windowsOf(id), datasets: DATASETS },
      ]),
    ),
    queue,
    schema,
    concurrency: 2,
    exitWhenIdle: true,
  };
  // The test process only enqueues and reads status: it never syncs, so it needs no key.
  const fleet = createFleet({
    postgres: env.postgresUrl,
    accounts: Object.fromEntries(
      ACCOUNTS.map((id) => [id, { apiKey: 'the-test-process-never-syncs', job: { projects: 'all' as const } }]),
    ),
    queue,
    schema,
  });
  const workers: Worker[] = [];
  let kills = 0;
  let killed = 0;
  let crashes = 0;
  try {
    const start = new Map(ACCOUNTS.map((id) => [id, truthOf(simOf.get(id)!)]));
    const changesAtStart = new Map(ACCOUNTS.map((id) => [id, simOf.get(id)!.chaos?.changes.length ?? 0]));
    await fleet.enqueue();
    const startedAt = Date.now();
    const count = 2 + (hash32(seed, 'workers') % 2);
    const launch = (name: string) => workers.push(startWorker({ script }, name, args, WORKER_BOUND_MS));
    for (let i = 1; i <= count; i++) launch(`w${i}`);

    // The kill schedule: request counts (served over all accounts) at which a worker is SIGKILLed.
    const schedule = Array.from({ length: kills_ }, (_, k) => KILL_FROM + (hash32(seed, 'kill', k) % KILL_SPAN)).sort(
      (a, b) => a - b,
    );
    const served = () => sims.reduce((n, s) => n + s.requests.length, 0);
    const alive = () => workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
    const heldBy = (w: Worker) =>
      w.events
        .filter((e) => e.type === 'start' && !w.events.some((x) => x.type === 'end' && x.jobId === e.jobId))
        .map((e) => e.account!);
    while (alive().length > 0) {
      const next = schedule[kills];
      if (next !== undefined && Date.now() - startedAt < KILL_WINDOW_MS && served() >= next) {
        // A worker that holds an account if any does (a kill then interrupts a run), chosen by the
        // seed; the last kill, and one in three of the others, is a crash of the whole machine:
        // every worker at once, so no survivor is left to notice a lapsed heartbeat, only the replacements.
        const holding = alive().filter((w) => heldBy(w).length > 0);
        const candidates = holding.length > 0 ? holding : alive();
        const crash = kills === kills_ - 1 || hash32(seed, 'crash', kills) % 3 === 0;
        const victims = crash ? alive() : [candidates[hash32(seed, 'victim', kills) % candidates.length]!];
        for (const victim of victims) {
          victim.killedByTest = true;
          victim.child.kill('SIGKILL');
          victim.killedAt = Date.now();
        }
        await Promise.all(victims.map((v) => v.done));
        kills++;
        killed += victims.length;
        if (crash) crashes++;
        // The accounts they held are resumed in a new chaos run: new drift, new faults (as a resumed child is in the kill test).
        for (const id of new Set(victims.flatMap(heldBy))) simOf.get(id)?.chaos?.nextRun();
        for (const _ of victims) launch(`w${workers.length + 1}`);
        continue;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    await Promise.all(workers.map((w) => w.done));

    const outcomes = await Promise.all(workers.map((w) => w.done));
    const ends = workers.flatMap((w) => w.events.filter((e) => e.type === 'end'));
    const redact = (text: string) => keys.reduce((t, k) => t.replaceAll(k, '[KEY]'), text);
    for (const [i, w] of workers.entries()) {
      const o = outcomes[i]!;
      if (w.killedByTest) continue;
      verdicts.check(
        seed,
        SETTLES,
        o.signal !== 'SIGKILL',
        () =>
          `worker ${w.name} still running after ${WORKER_BOUND_MS / 1000} s; holding ${heldBy(w).join(', ') || 'nothing'}`,
      );
      verdicts.check(
        seed,
        COMPLETES,
        o.signal === 'SIGKILL' || o.code === 0,
        () => `worker ${w.name} exited with ${o.code}: ${redact(o.stderr.slice(0, 800))}`,
      );
    }

    // Every account completed, within a bounded number of runs.
    const status = new Map((await fleet.status()).map((s) => [s.account, s]));
    for (const id of ACCOUNTS) {
      const started = workers.reduce(
        (n, w) => n + w.events.filter((e) => e.type === 'start' && e.account === id).length,
        0,
      );
      // A run that stopped for the budget is the plan, not a fault: it is bounded by the budget instead.
      const budgetStops = ends.filter(
        (e) => e.account === id && e.run?.status === 'stopped' && e.run.reason === 'daily_budget',
      ).length;
      const dayLimit = windowsOf(id).reduce((day, w) => (w.intervalMs > day.intervalMs ? w : day)).limit;
      const maxStops = Math.ceil(simOf.get(id)!.requests.length / dayLimit) + 1;
      const runs = started - budgetStops;
      const last = status.get(id);
      if (budgetStops > 0)
        console.info(
          `chaos fleet seed ${seed}: ${id} stopped ${budgetStops} times for its budget and was resumed at the reset`,
        );
      verdicts.check(
        seed,
        COMPLETES,
        last?.state === 'completed' && runs <= maxRuns(kills_) && budgetStops <= maxStops,
        () =>
          `${id}: ${last?.state ?? 'no status'} after ${runs} runs (at most ${maxRuns(kills_)}) and ${budgetStops} stops for the budget (at most ${maxStops}); last run ${redact(JSON.stringify(last?.lastRun))}; ${journalText(simOf.get(id)!)}`,
      );
    }
    // Every failed run failed with a typed error.
    const untyped = ends.filter((e) => e.run?.status === 'failed' && UNTYPED.has(e.run.error?.name ?? ''));
    verdicts.check(seed, TYPED_ERRORS, untyped.length === 0, () =>
      untyped.map((e) => `${e.account}: ${e.run?.error?.name}: ${redact(e.run?.error?.message ?? '')}`).join('; '),
    );
    // No two workers held one account at once (a killed worker's hold ends when it died).
    for (const [id, list] of holds(workers)) {
      const sorted = [...list].sort((a, b) => a.from - b.from);
      const overlaps = sorted.filter((h, i) => i > 0 && h.from < sorted[i - 1]!.to);
      verdicts.check(seed, ONE_HOLDER, overlaps.length === 0, () => `${id}: ${JSON.stringify(sorted)}`);
    }

    // Each account's tables against its truth: current-state rows and today's snapshot.
    const date = new Date().toISOString().slice(0, 10);
    for (const id of ACCOUNTS) {
      const sim = simOf.get(id)!;
      if (status.get(id)?.state !== 'completed') continue;
      const held = {
        current: await pgCopyOf(pool, schema, id),
        counts: await pgSnapshotCounts(pool, schema, id, date),
      };
      checkHeld(
        seed,
        `account ${id}`,
        sim,
        held,
        start.get(id)!,
        touchedSince(sim, changesAtStart.get(id)!),
        date,
        verdicts,
      );
      const doubled = await doubledRows(pool, schema, id);
      verdicts.check(
        seed,
        NO_DOUBLE,
        doubled.length === 0,
        () => `account ${id}: ${doubled.slice(0, 4).join(', ')} (${doubled.length} keys); ${journalText(sim)}`,
      );
    }

    // No key anywhere: any row of any table (warehouse, pg-boss), anything a worker printed.
    const printed = outcomes.map((o) => o.stderr).join('\n') + JSON.stringify(workers.map((w) => w.events));
    for (const [i, id] of ACCOUNTS.entries()) {
      const key = keys[i]!;
      const leaks = await tablesHolding(pool, key);
      if (printed.includes(key)) leaks.push('worker output');
      verdicts.check(
        seed,
        NO_KEY,
        leaks.length === 0,
        () => `account ${id}: the key appears in: ${leaks.join(', ')}; ${journalText(simOf.get(id)!)}`,
      );
    }

    // The API's own 429s stay bounded.
    let requests = 0;
    for (const id of ACCOUNTS) {
      const sim = simOf.get(id)!;
      const figures = api429s(sim);
      requests += figures.requests;
      console.info(
        `chaos fleet seed ${seed}: ${id} ${figures.requests} requests, ${figures.api429} × API 429, ${figures.gateway429} gateway 429s (${figures.insideGateway} sent inside one), chaos run ${sim.chaos?.run}`,
      );
      verdicts.check(
        seed,
        FEW_429,
        figures.api429 <= MAX_API_429 && figures.insideGateway <= GATEWAY_SLACK,
        () =>
          `account ${id}: ${figures.api429} × 429 from the API (at most ${MAX_API_429}), ${figures.insideGateway} requests sent inside a gateway 429's Retry-After (at most ${GATEWAY_SLACK}), in ${figures.requests} requests; ${journalText(sim)}`,
      );
    }
    const runs = ends.length + workers.filter((w) => w.killedByTest).reduce((n, w) => n + heldBy(w).length, 0);
    console.info(
      `chaos fleet seed ${seed}: ${workers.length} workers (${count} at once), kills at ${schedule.slice(0, kills).join(', ')} requests served, ${kills} landed (${crashes} of them crashes of every worker), ${killed} workers SIGKILLed, ${runs} runs`,
    );
    return { kills, killed, crashes, workers: workers.length, runs, requests };
  } finally {
    for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.done));
    await fleet.close();
    await server.close();
  }
}
