/**
 * One seed of the sync model: copies of a chaos account through runs on successive days, some
 * stopped part-way and resumed (some the next day), compared with the truth after each completed
 * run; the properties are checked into `verdicts`. Runs on vitest's faked timers (see clock.ts).
 */
import { readFileSync } from 'node:fs';
import { vi } from 'vitest';
import { SeoVisibilityError } from '../../../src/index.js';
import { type SyncJob, type SyncResult, runSync, sqliteStore } from '../../../src/sync/index.js';
import { CHAOS_KIND_NAMES, type ChaosKind } from '../../../src/testing/index.js';
import { hash32 } from '../../../src/testing/data/rng.js';
import { api429s, type ChaosAccount, chaosAccount, journalText, WINDOWS } from './account.js';
import { DAY, drive } from './clock.js';
import { checkCopy } from './copy-checks.js';
import { COMPLETES, FEW_429, NO_KEY, RIDES_OUT_FAULTS, SETTLES, TYPED_ERRORS } from './properties.js';
import type { Verdicts } from './seeds.js';
import { touchedSince, truthOf } from './truth.js';

/** Runs (days) per seed. */
const RUNS = 3;
/** Calls one run may take (the first and its resumes) before it counts as a copy that never completes. */
const MAX_CALLS = 6;
/** One call copies ~2,500 rows in ~30 requests, paced on 10 per 10 s (about 30 s), so it settles well within this. */
const BOUND_MS = 5 * 60_000;
/** Pages of the first project's anchors and content lists (1,000 a page): drift can fall between them. */
const LIST_ITEMS = 1_010;

/**
 * Every kind but the bomb (only an HTTP client inflates it: the system suite) and, in the fast set,
 * the 1,700-field record: SQLite takes ~10 s to add 1,700 columns, too slow for the unit loop
 * (test/sync/sqlite-wide-record.test.ts covers it there); heavy mode (`CHAOS_RUNS`) includes it.
 */
const KINDS = CHAOS_KIND_NAMES.filter(
  (k) => k !== 'bomb' && (process.env.CHAOS_RUNS !== undefined || k !== 'wide-record'),
);

/** Requests a run may send inside a gateway 429's Retry-After: those already in flight (the sync's concurrency). */
const GATEWAY_SLACK = 4;

const JOB: SyncJob = {
  projects: 'all',
  datasets: ['projects.list', 'rankings.list', 'backlinks.anchors', 'content.list'],
};

/** A mix of chaos: every kind, or one class of attack at a higher rate, so a rare kind still bites in the fast set. */
export interface Profile {
  name: string;
  kinds: readonly ChaosKind[];
  rate: number;
  /** Seeds in the fast set. */
  fast: number;
  /** The job (default: projects, rankings, anchors and content). */
  job?: SyncJob;
  /** Projects added to the account (chaos `listProjects`), so the project list takes pages. */
  listProjects?: number;
}

export const PROFILES: Profile[] = [
  { name: 'every kind', kinds: KINDS, rate: 0.15, fast: 3 },
  { name: 'gateway 429s under concurrency', kinds: ['gateway-429'], rate: 0.3, fast: 1 },
  { name: 'clock skew', kinds: ['skew'], rate: 0.15, fast: 1 },
  // 504 projects: the project list takes two pages of 500, and drift falls between them.
  {
    name: 'a project list of two pages that changes',
    kinds: ['list-drift'],
    rate: 0.15,
    fast: 1,
    job: { projects: 'all', datasets: ['projects.list'] },
    listProjects: 500,
  },
];

export async function checkSyncSeed(seed: number, profile: Profile, db: string, verdicts: Verdicts): Promise<void> {
  const account = chaosAccount({
    seed,
    listItems: LIST_ITEMS,
    kinds: profile.kinds,
    rate: profile.rate,
    listProjects: profile.listProjects ?? 0,
  });
  const job = profile.job ?? JOB;
  const { sim } = account;
  for (let run = 1; run <= RUNS; run++) {
    if (run > 1) {
      vi.setSystemTime(Date.now() + DAY);
      sim.chaos?.nextRun();
    }
    const start = truthOf(sim);
    const changesAtStart = sim.chaos?.changes.length ?? 0;
    const requestsAtStart = sim.requests.length;
    const eventsAtStart = sim.chaos?.journal.length ?? 0;
    // Some runs are stopped part-way (as by Ctrl-C) after a seeded number of requests, then resumed.
    const stopAfter = hash32(seed, 'stop', run) % 3 === 0 ? 1 + (hash32(seed, 'stop-at', run) % 25) : undefined;
    // Some stopped runs are resumed the next day (as after a night): that day must get its own snapshot.
    const resumeNextDay = stopAfter !== undefined && hash32(seed, 'next-day', run) % 2 === 0;
    const ended = await runUntilDone(account, job, db, seed, run, stopAfter, resumeNextDay, verdicts);
    if (!ended) return;
    const completedOn = new Date(Date.now()).toISOString().slice(0, 10);
    checkCopy(
      seed,
      run,
      sim,
      db,
      start,
      touchedSince(sim, changesAtStart),
      { snapshotDate: completedOn },
      verdicts,
      job.datasets,
    );
    const rate = api429s(sim, requestsAtStart, eventsAtStart);
    verdicts.check(
      seed,
      FEW_429,
      rate.api429 <= 2 + rate.requests / 50 && rate.insideGateway <= GATEWAY_SLACK,
      () =>
        `run ${run}: ${rate.api429} × 429 from the API, ${rate.insideGateway} requests sent inside a gateway 429's Retry-After (of ${rate.gateway429} gateway 429s), in ${rate.requests} requests; skew ${sim.chaos?.skewMs} ms; ${journalText(sim)}`,
    );
  }
  const leaks = [
    ...account.outputs.leaksOf(account.key),
    ...(readFileSync(db).toString('latin1').includes(account.key) ? ['the SQLite file'] : []),
  ];
  verdicts.check(
    seed,
    NO_KEY,
    leaks.length === 0,
    () => `the key appears in: ${leaks.join(', ')}; ${journalText(sim)}`,
  );
}

/** Calls runSync until the run completes (each call a new chaos run: the truth may change between them); undefined when it never does. */
async function runUntilDone(
  account: ChaosAccount,
  job: SyncJob,
  db: string,
  seed: number,
  run: number,
  stopAfter: number | undefined,
  resumeNextDay: boolean,
  verdicts: Verdicts,
): Promise<SyncResult | undefined> {
  const { sim, client, outputs } = account;
  let lastError = '';
  for (let call = 1; call <= MAX_CALLS; call++) {
    if (call > 1) sim.chaos?.nextRun();
    if (call === 2 && resumeNextDay) vi.setSystemTime(Date.now() + DAY);
    const stop = new AbortController();
    let requests = 0;
    const outcome = await drive(
      () =>
        runSync(client, job, {
          store: sqliteStore(db),
          windows: WINDOWS,
          now: () => Date.now(),
          signal: stop.signal,
          onProgress: (p) => {
            outputs.add('onProgress', p);
            if (call === 1 && stopAfter !== undefined && ++requests >= stopAfter) stop.abort();
          },
        }),
      BOUND_MS,
    );
    if (outcome.kind === 'hung') {
      verdicts.broke(
        seed,
        SETTLES,
        `run ${run} call ${call}: runSync still pending after ${BOUND_MS / 60_000} simulated minutes; skew ${sim.chaos?.skewMs} ms; ${journalText(sim)}`,
      );
      stop.abort();
      return undefined;
    }
    if (outcome.kind === 'error') {
      // A failed call is resumable if the next one gets further: only a run that never completes breaks the property.
      outputs.add('runSync error', outcome.error);
      lastError = String((outcome.error as Error)?.message ?? outcome.error).slice(0, 400);
      // Every chaos fault is transient (at most `faultyAttempts` attempts of a request; the client
      // retries more), so a call that throws rode out nothing it should have.
      verdicts.broke(seed, RIDES_OUT_FAULTS, `run ${run} call ${call} threw: ${lastError.slice(0, 250)}`);
      if (!(outcome.error instanceof SeoVisibilityError)) {
        verdicts.broke(seed, TYPED_ERRORS, `run ${run} call ${call}: ${String(outcome.error)}`);
        return undefined;
      }
      continue;
    }
    outputs.add('runSync result', outcome.value);
    if (outcome.value.status === 'completed') return outcome.value;
  }
  verdicts.broke(
    seed,
    COMPLETES,
    `run ${run}: not completed after ${MAX_CALLS} calls${lastError ? `; the last failed with: ${lastError}` : ''}; ${journalText(sim)}`,
  );
  return undefined;
}
