import type { KeywordHistory } from '../../src/index.js';
import { CHANNELS } from './channels.js';

/**
 * The line under the keyword chart, from the positions the chart draws: the best and worst over
 * every channel's line. The server's `summary` describes one channel, so the chart could reach
 * #17 under a subtitle saying "worst #8".
 * @example `byId('keyword').textContent = keywordSubtitle(history); // “coffee beans”: best #1, worst #17 over 4 channels, 90 days`
 */
export function keywordSubtitle(history: KeywordHistory): string {
  const plotted = history.history.flatMap((day) =>
    CHANNELS.map((c) => day[c.key]).filter((v): v is number => typeof v === 'number'),
  );
  const range =
    plotted.length === 0
      ? 'no position yet'
      : `best #${Math.min(...plotted)}, worst #${Math.max(...plotted)} over ${CHANNELS.length} channels`;
  return `“${history.keyword}”: ${range}, ${history.history.length} days`;
}
