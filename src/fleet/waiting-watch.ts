import type { FleetQueue, QueueSettings } from './queue.js';
import type { FleetEvent } from './run-account.js';
import { waitingNotes } from './waiting.js';

/** How often a worker with room to spare looks at what it is waiting for (it reads the queue's history). */
const LOOK_EVERY_MS = 10_000;
/** Notes said at once, at most; the rest are counted in one line. */
const MAX_NOTES = 5;

/**
 * Tells a worker's `onEvent` what it waits for, once per account and state (`waitingNotes`): a
 * worker started after another was killed said nothing until the dead one's heartbeat lapsed.
 * Looks only while the worker has room for another account, at most every ten seconds; a failed
 * look is an `error` event, never the worker's end.
 * @internal
 */
export class WaitingWatch {
  readonly #said = new Set<string>();
  #lastLook = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly queue: FleetQueue,
    private readonly settings: QueueSettings,
    private readonly concurrency: number,
    private readonly inHand: ReadonlySet<string>,
    private readonly emit: (event: FleetEvent) => void,
  ) {}

  async look(): Promise<void> {
    if (this.inHand.size >= this.concurrency || Date.now() - this.#lastLook < LOOK_EVERY_MS) return;
    this.#lastLook = Date.now();
    try {
      const fresh = waitingNotes(await this.queue.jobs(), this.inHand, this.settings, Date.now()).filter((n) => !this.#said.has(n.key));
      for (const note of fresh) this.#said.add(note.key);
      const at = Date.now();
      for (const note of fresh.slice(0, MAX_NOTES)) this.emit({ type: 'waiting', account: note.account, at, message: note.message });
      if (fresh.length > MAX_NOTES) this.emit({ type: 'waiting', at, message: `and ${fresh.length - MAX_NOTES} more account(s) held elsewhere or waiting (fleet status lists every one)` });
    } catch (error) {
      this.emit({ type: 'error', at: Date.now(), message: `could not read the queue to say what this worker waits for: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
}
