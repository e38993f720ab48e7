import type { FleetQueue, QueueSettings } from './queue.js';
import type { FleetEvent } from './run-account.js';
import { waitingNotes } from './waiting.js';

/**
 * How often a worker with room to spare looks at what it waits for (each look reads the queue's
 * history): soon after it starts, then less often while nothing new turns up.
 */
const FIRST_GAP_MS = 10_000;
const LONGEST_GAP_MS = 60_000;
/** Notes said at once, at most; the rest are counted in one line. */
const MAX_NOTES = 5;

/**
 * Tells a worker's `onEvent` what it waits for, once per account and state (`waitingNotes`): a
 * worker started after another was killed said nothing until the dead one's heartbeat lapsed.
 * Looks only while the worker has room for another account, at once and then every 10 s to 60 s;
 * a failed look is an `error` event, never the worker's end.
 * @internal
 */
export class WaitingWatch {
  readonly #queue: Pick<FleetQueue, 'jobs'>;
  readonly #settings: QueueSettings;
  readonly #concurrency: number;
  readonly #inHand: ReadonlySet<string>;
  readonly #emit: (event: FleetEvent) => void;
  readonly #now: () => number;
  readonly #said = new Set<string>();
  #nextLook = Number.NEGATIVE_INFINITY;
  #gap = FIRST_GAP_MS;

  constructor(
    queue: Pick<FleetQueue, 'jobs'>,
    settings: QueueSettings,
    concurrency: number,
    inHand: ReadonlySet<string>,
    emit: (event: FleetEvent) => void,
    now: () => number = Date.now,
  ) {
    this.#queue = queue;
    this.#settings = settings;
    this.#concurrency = concurrency;
    this.#inHand = inHand;
    this.#emit = emit;
    this.#now = now;
  }

  async look(): Promise<void> {
    if (this.#inHand.size >= this.#concurrency || this.#now() < this.#nextLook) return;
    let found = false;
    try {
      const fresh = waitingNotes(await this.#queue.jobs(), this.#inHand, this.#settings, this.#now()).filter(
        (n) => !this.#said.has(n.key),
      );
      for (const note of fresh) this.#said.add(note.key);
      const at = this.#now();
      for (const note of fresh.slice(0, MAX_NOTES))
        this.#emit({ type: 'waiting', account: note.account, at, message: note.message });
      if (fresh.length > MAX_NOTES)
        this.#emit({
          type: 'waiting',
          at,
          message: `and ${fresh.length - MAX_NOTES} more account(s) held elsewhere or waiting (fleet status lists every one)`,
        });
      found = fresh.length > 0;
    } catch (error) {
      this.#emit({
        type: 'error',
        at: this.#now(),
        message: `could not read the queue to say what this worker waits for: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
    if (found) this.#gap = FIRST_GAP_MS;
    this.#nextLook = this.#now() + this.#gap;
    if (!found) this.#gap = Math.min(LONGEST_GAP_MS, this.#gap * 2);
  }
}
