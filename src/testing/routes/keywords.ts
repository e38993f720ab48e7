import { dayOf } from '../data/time.js';
import { notFound } from '../envelope.js';
import { MAX_LIMIT, dateParam, enumParam, page, pageMeta, requireProject, uuidParam } from '../params.js';
import type { KeywordRecord } from '../records.js';
import type { RouteDef } from './context.js';

/** Default history window (reference: date_from defaults to 90 days ago). */
const HISTORY_DAYS = 90;

/**
 * Keyword rankings and keyword history.
 *
 * `device` (`all`, `desktop`, `mobile`) is validated but returns the same rows: every row carries
 * both the desktop and the mobile position (the simulator's documented choice).
 * `date_from`/`date_to` filter by the date of the keyword's last check (`last_checked`).
 * Rows are generated on demand, so an unfiltered page of a 100,000-keyword project costs one page.
 *
 * @internal
 */
export const keywordRoutes: RouteDef[] = [
  {
    method: 'GET',
    pattern: '/projects/:projectId/rankings/keywords',
    handler: ({ store, params, query }) => {
      const table = requireProject(store, params).keywords;
      const p = page(query, MAX_LIMIT.keywords);
      enumParam(query, 'device', ['all', 'desktop', 'mobile'], 'all');
      const from = dateParam(query, 'date_from');
      const to = dateParam(query, 'date_to');
      if (!from && !to) {
        const end = Math.min(table.count, p.offset + p.limit);
        const data: KeywordRecord[] = [];
        for (let i = p.offset; i < end; i++) data.push(table.row(i));
        return { data, pagination: pageMeta(table.count, p) };
      }
      // Filtering needs only each row's last-check day, which is cheap; full rows only for the page.
      const matches: number[] = [];
      for (let i = 0; i < table.count; i++) {
        const day = table.lastCheckDay(i);
        if ((!from || day >= from.day) && (!to || day <= to.day)) matches.push(i);
      }
      return {
        data: matches.slice(p.offset, p.offset + p.limit).map((i) => table.row(i)),
        pagination: pageMeta(matches.length, p),
      };
    },
  },
  {
    method: 'GET',
    pattern: '/projects/:projectId/rankings/keywords/:keywordId/history',
    handler: ({ store, params, query, now }) => {
      const table = requireProject(store, params).keywords;
      const id = uuidParam(params, 'keywordId');
      const today = dayOf(now);
      const from = dateParam(query, 'date_from')?.day ?? today - HISTORY_DAYS;
      const to = dateParam(query, 'date_to')?.day ?? today;
      const history = table.history(id, from, to);
      if (!history) throw notFound('Keyword');
      return { data: history };
    },
  },
];
