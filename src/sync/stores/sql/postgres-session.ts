import type { PoolClient, QueryConfig, QueryResult, QueryResultRow } from 'pg';

/**
 * The one connection a Postgres store holds for a run, with every wait bounded: a frozen, partitioned
 * or overloaded server must never hold a run (or its stop) forever.
 *
 * - Each query has a client-side deadline (node-postgres `query_timeout`): a server that does not
 *   answer in time (SIGSTOPped, a VM paused, a network cut no keepalive has noticed yet) fails the
 *   query with a clear error, and the connection is dropped at once (its socket destroyed), so
 *   nothing queues behind the unanswered query. The server's own `statement_timeout` and
 *   `lock_timeout` (set per transaction by the store) are shorter, so a live server answers first,
 *   cleanly.
 * - {@link destroy} drops the connection whatever is in flight: the store's `close` uses it when a stop
 *   cannot wait for the server. The server rolls back the open transaction when it sees the socket
 *   gone (a page is all or nothing), and the session's advisory lock dies with it.
 * @internal
 */
export class PgSession {
  #client: PoolClient | undefined;
  #active = 0;

  constructor(
    client: PoolClient,
    /** The deadline of one query, in ms. */
    readonly timeoutMs: number,
  ) {
    this.#client = client;
  }

  /** Whether a query is waiting for the server. */
  get busy(): boolean {
    return this.#active > 0;
  }

  /** Whether the connection is still held. */
  get open(): boolean {
    return this.#client !== undefined;
  }

  /** One query, failing after `timeoutMs` (or the given deadline) without an answer. */
  async query<R extends QueryResultRow = Record<string, unknown>>(
    text: string,
    values?: unknown[],
    timeoutMs = this.timeoutMs,
  ): Promise<QueryResult<R>> {
    const client = this.#client;
    if (!client)
      throw new Error('the connection to PostgreSQL was dropped (a query went unanswered, or the run was stopped)');
    this.#active++;
    try {
      // `query_timeout` per query is node-postgres API its type definitions lack.
      const config: QueryConfig & { query_timeout: number } = {
        text,
        ...(values ? { values } : {}),
        query_timeout: timeoutMs,
      };
      return await client.query<R>(config as QueryConfig);
    } catch (error) {
      if ((error as Error | undefined)?.message !== 'Query read timeout') throw error;
      this.destroy();
      throw new Error(
        `PostgreSQL did not answer within ${timeoutMs} ms (the server is frozen, overloaded or cut off); the connection was dropped, and the server rolls back what this page began`,
      );
    } finally {
      this.#active--;
    }
  }

  /** Gives the connection back to its pool, for reuse. */
  release(): void {
    const client = this.#client;
    this.#client = undefined;
    client?.release();
  }

  /**
   * Drops the connection now, whatever is in flight: the socket is destroyed (a graceful end would
   * wait for a frozen server's answer), then the client is handed back as broken, so its pool forgets it.
   */
  destroy(): void {
    const client = this.#client;
    this.#client = undefined;
    if (!client) return;
    // node-postgres has no public "destroy": its own end() does this for a client with a query in
    // flight, but waits for the server's goodbye otherwise, which a frozen server never sends.
    (client as unknown as { connection?: { stream?: { destroy?: () => void } } }).connection?.stream?.destroy?.();
    client.release(true);
  }
}
