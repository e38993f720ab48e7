import type { Sql } from '../dialect.js';
/**
 * The lengths, in days, of the periods the stored views hold (a view has no parameters, so each
 * length is a `period_days` value). A query for another length builds the same SELECT for it.
 * @internal
 */
export const VIEW_PERIODS: readonly number[] = [7, 28, 90];

/** One insight view: its name, what it answers, its columns and its SELECT. @internal */
export interface InsightView {
  name: string;
  description: string;
  /** Column → what it holds; the order is the SELECT's. */
  columns: Readonly<Record<string, string>>;
  /** Whether rows carry `period_days` (and so can be filtered by a period length). */
  periodic: boolean;
  /** The SELECT for these period lengths, over the columns the store has. */
  select(q: Sql, periods: readonly number[]): string;
}

/** The account column every view starts with. @internal */
export const ACCOUNT = "the account the row belongs to (a fleet schema's account_id); null in a store of one account";

/** How the interval columns are described. @internal */
export const WILSON = 'the 95% Wilson score interval (percent) of the responses:';

/** How a position column is described. @internal */
export const POSITION = 'position on the date, 1 = first; null when not ranking (or not checked)';

/** The four devices a keyword is ranked on (the `<device>_position` columns). @internal */
export const DEVICES = ['desktop', 'mobile', 'ai_mode', 'maps'] as const;
