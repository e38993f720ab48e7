import { ColumnNames } from './column-names.js';
import { MAX_COLUMNS, type SqlDialect as ValueRules, holds, isIsoTime, splitRow, utcTime } from './column-values.js';
import type { ColumnType, TableSchema } from '../../datasets/datasets.js';
import { SyncError } from '../../errors.js';
import { type DeleteMark, type Row, StateMap, type StoreCommit, type SyncStore } from '../store.js';

/** Column → type of each table, as a store holds them. @internal */
export type TableColumns = Map<string, Map<string, ColumnType>>;

/** One row as a SQL store writes it: column → value its column holds, and `_raw`'s exact values (column-values.ts). @internal */
export interface PreparedRow {
  cells: Map<string, unknown>;
  raw: Map<string, unknown>;
}

/** A column a page adds: its table, name and type (the type of the field's first value). @internal */
export type AddedColumn = [table: string, column: string, type: ColumnType];

/** A key column widened to text: its table, name and the type it had. @internal */
export type WidenedColumn = [table: string, column: string, from: ColumnType];

/**
 * What one database brings to a SQL store: its connection and lock, its DDL and SQL, and how its
 * errors read. {@link SqlStore} holds the copy protocol every SQL store shares (one transaction per
 * page of rows, marks and progress; columns added for new fields, typed by their first value, up to
 * MAX_COLUMNS; `_raw` for values a column cannot hold; date and timestamp keys widened to text in a
 * typed database; memory following the database only once a transaction is in). Adding a SQL store
 * is a dialect and its tests.
 * @internal
 */
export interface StoreDialect {
  /** `SQLite`, `Postgres`: said in messages. */
  readonly label: string;
  /** Where the data lives, for messages. */
  readonly location: string;
  /** Which value rules its columns follow (column-values.ts): `sqlite` columns take any type, `postgres` ones are typed. */
  readonly values: ValueRules;
  /** Whether columns have types (then a date or timestamp key that receives another value is widened to text). */
  readonly typed: boolean;
  /** Columns of the store's own beside the declared ones (`_raw`, a scope's `account_id`): a field never takes their name. */
  readonly reserved: readonly string[];
  /**
   * Connects, takes the run's lock, creates what is missing (schema, tables, columns added since,
   * extensions' objects) and reads the progress. Rejects with `SyncError` (`in_use`, `store`); leaves
   * nothing open when it rejects.
   */
  open(): Promise<{ columns: TableColumns; state: Iterable<[string, unknown]> }>;
  /** Begins a page's transaction: `ddl` when the page changes columns (taken exclusively where stores share a schema). */
  begin(ddl: boolean): Promise<void>;
  /** Columns as the database has them now, inside a DDL transaction (another store may have changed them since open). */
  columnsNow(known: TableColumns): Promise<TableColumns>;
  /** Inside the page's transaction: widens key columns, adds columns, and (where it runs them there) updates the extensions' objects. */
  changeColumns(added: readonly AddedColumn[], widened: readonly WidenedColumn[]): Promise<void>;
  /** Upserts prepared rows by the table's key (the last row of a key wins). */
  writeRows(table: TableSchema, rows: readonly PreparedRow[], columns: ReadonlyMap<string, ColumnType>): Promise<void>;
  /** Marks the rows of one delete mark. */
  mark(mark: DeleteMark): Promise<void>;
  /** Sets (or, for null, removes) progress entries. */
  writeState(state: Readonly<Record<string, unknown>>): Promise<void>;
  commit(): Promise<void>;
  /** Rolls back, never throwing (the database may have rolled back itself). */
  rollback(): Promise<void>;
  /** The `SyncError` of a failed page, in the database's words (never a secret). */
  writeFailed(error: unknown, write: StoreCommit): SyncError;
  /** After a committed page that changed columns: updates the extensions' objects where that runs outside the page. */
  afterColumnsChanged(): Promise<void>;
  /** Releases the lock and the connection. */
  close(): Promise<void>;
}

/**
 * A SQL store: the copy protocol over a {@link StoreDialect}. The SQLite and PostgreSQL stores (and
 * any other SQL database) are this class and their dialect.
 * @internal
 */
export class SqlStore implements SyncStore {
  readonly location: string;
  readonly #state = new StateMap();
  /** Column → type of every table, as the last committed page left them. */
  readonly #columns: TableColumns = new Map();
  readonly #names = new Map<string, ColumnNames>();
  #open = false;

  constructor(readonly dialect: StoreDialect) {
    this.location = dialect.location;
  }

  async open(): Promise<void> {
    if (this.#open) return;
    const { columns, state } = await this.dialect.open();
    this.#columns.clear();
    for (const [table, cols] of columns) this.#columns.set(table, cols);
    this.#state.clear();
    for (const [key, value] of state) this.#state.set(key, value);
    this.#open = true;
  }

  get(key: string): unknown {
    return this.#state.get(key);
  }

  entries(prefix: string): Array<[string, unknown]> {
    return this.#state.entries(prefix);
  }

  async commit(write: StoreCommit): Promise<void> {
    const d = this.dialect;
    if (!this.#open) throw new SyncError('store', `The ${d.label} store at ${this.location} is not open`);
    const writes = write.writes ?? [];
    // Columns added inside the transaction count only once it is in.
    let plan = this.#plan(writes, this.#columns);
    const ddl = plan.added.length > 0 || plan.widened.length > 0;
    try {
      await d.begin(ddl);
      if (ddl) {
        // Another store may have changed the tables since this one opened (added the same field with
        // another type, widened a key): plan again on the columns as they are now.
        plan = this.#plan(writes, await d.columnsNow(this.#columns));
        await d.changeColumns(plan.added, plan.widened);
      }
      for (const { table, rows } of writes)
        if (rows.length)
          await d.writeRows(
            table,
            this.#prepare(table, rows, plan.columns.get(table.table) ?? new Map()),
            plan.columns.get(table.table) ?? new Map(),
          );
      for (const mark of write.deletes ?? []) await d.mark(mark);
      await d.writeState(write.state ?? {});
      await d.commit();
    } catch (error) {
      await d.rollback();
      throw d.writeFailed(error, write);
    }
    // Memory follows the database only once the transaction is in.
    for (const [table, cols] of plan.columns) this.#columns.set(table, cols);
    for (const [key, value] of Object.entries(write.state ?? {})) this.#state.set(key, value);
    if (plan.added.length || plan.widened.length) await d.afterColumnsChanged();
  }

  async close(): Promise<void> {
    this.#open = false;
    this.#columns.clear();
    await this.dialect.close();
  }

  #namesOf(table: TableSchema): ColumnNames {
    let names = this.#names.get(table.table);
    if (!names) this.#names.set(table.table, (names = new ColumnNames(table.columns, this.dialect.reserved)));
    return names;
  }

  /**
   * The columns each written table has once this page is in, from `base` (the columns known now):
   * fields the server added become columns (`added`), typed by their first value, while the table
   * has fewer than MAX_COLUMNS (past that a field goes to `_raw` only); in a typed database a date or
   * timestamp key column that receives a value it cannot hold is widened to text (`widened`: a row
   * cannot be keyed by NULL). Other values a column cannot hold go to `_raw` (column-values.ts).
   */
  #plan(
    writes: NonNullable<StoreCommit['writes']>,
    base: TableColumns,
  ): { added: AddedColumn[]; widened: WidenedColumn[]; columns: TableColumns } {
    const added: AddedColumn[] = [];
    const widened: WidenedColumn[] = [];
    const columns: TableColumns = new Map();
    const { typed, values } = this.dialect;
    for (const { table, rows } of writes) {
      let known = columns.get(table.table);
      if (!known) columns.set(table.table, (known = new Map(base.get(table.table) ?? [])));
      const names = this.#namesOf(table);
      for (const row of rows) {
        for (const field in row) {
          const col = names.of(field);
          const type = known.get(col);
          if (type === undefined) {
            if (known.size >= MAX_COLUMNS) continue;
            // A type the dataset declares wins over the first value's (first_seen: a day, not text).
            const inferred = table.types[field] ?? inferType(rows, field);
            known.set(col, inferred);
            added.push([table.table, col, inferred]);
          } else if (
            typed &&
            (type === 'date' || type === 'timestamp') &&
            table.primaryKey.includes(col) &&
            !holds(row[field], type, values)
          ) {
            known.set(col, 'text');
            widened.push([table.table, col, type]);
          }
        }
      }
    }
    return { added, widened, columns };
  }

  /** Each row as the columns hold it (column-values.ts). */
  #prepare(table: TableSchema, rows: readonly Row[], known: ReadonlyMap<string, ColumnType>): PreparedRow[] {
    const names = this.#namesOf(table);
    const { typed, values } = this.dialect;
    const columnOf = (field: string) => {
      const col = names.of(field);
      return known.has(col) ? col : undefined;
    };
    const typeOf = (col: string) => (typed ? (known.get(col) ?? 'text') : 'text');
    // A timestamp key widened to text keeps one spelling per moment (the one its rows were converted
    // to), so a row read again after the widening still finds its key.
    const widenedTimes = typed
      ? table.primaryKey.filter((col) => table.types[col] === 'timestamp' && known.get(col) === 'text')
      : [];
    return rows.map((row) => {
      const { cells, raw } = splitRow(row, columnOf, typeOf, values);
      for (const col of widenedTimes) {
        const value = cells.get(col);
        if (typeof value !== 'string' || !isIsoTime(value)) continue;
        const canonical = new Date(Date.parse(utcTime(value).replace(' ', 'T'))).toISOString();
        if (canonical === value) continue;
        cells.set(col, canonical);
        raw.set(col, value);
      }
      return { cells, raw };
    });
  }
}

/** The type of a new column: that of the field's first non-null value in the page. */
function inferType(rows: readonly Row[], field: string): ColumnType {
  for (const row of rows) {
    const v = row[field];
    if (v === null || v === undefined) continue;
    if (typeof v === 'number') return 'number';
    if (typeof v === 'boolean') return 'boolean';
    if (typeof v === 'object') return 'json';
    return 'text';
  }
  return 'text';
}
