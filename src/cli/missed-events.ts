// The nightly sync's warning about events that never came (runSync's missedEvents): one line per
// project and event, with a change that shows it and what to do. Text from the API (ids, dates)
// goes through terminalText by the caller.
import type { MissedEvent } from '../sync/index.js';

/**
 * Warning lines for `seo-visibility sync`; none when nothing was missed (or the store records no events).
 * @internal
 */
export function missedEventLines(missed: readonly MissedEvent[] | undefined): string[] {
  if (!missed || missed.length === 0) return [];
  const lines = missed.map((m) => {
    const example = m.changes[0];
    const shown = example ? `, e.g. ${example.id ? `${example.id} at ` : ''}${example.at}` : '';
    return `Warning: no ${m.event} came for project ${m.projectId}: ${m.count} change${m.count === 1 ? '' : 's'} without one${shown}.`;
  });
  const projects = new Set(missed.map((m) => m.projectId)).size;
  lines.push(
    `Warning: ${projects} project${projects === 1 ? '' : 's'} with a silent webhook subscription; the copy is current (this sync read the data). Check the receiver and run \`seo-visibility webhooks ensure --url …\`.`,
  );
  return lines;
}
