// The dashboard page: the SDK and the simulator both run in the browser (the client's `fetch` is
// `sim.fetch`), so the page needs no server beyond the one serving its files.
import { SeoVisibilityClient } from '../../src/index.js';
import { createSimulator } from '../../src/testing/index.js';
import { percentBars, positionChart } from './chart.js';
import { CHANNELS } from './channels.js';
import { collectEvents, loadPositions, loadVisibility, rateLimitNotice } from './load.js';
import { keywordSubtitle } from './subtitle.js';

function byId(id: string): HTMLElement {
  const node = document.getElementById(id);
  if (!node) throw new Error(`#${id} missing from index.html`);
  return node;
}

async function main(): Promise<void> {
  const received: string[] = [];
  const sim = createSimulator({
    seed: 1,
    deliver: async (_url, init) => {
      received.push(String(init.body));
      return new Response(null, { status: 204 });
    },
  });
  // In the page: the simulator's keys are no secret, so the browser guard may let this client start.
  const client = new SeoVisibilityClient({
    apiKey: sim.keys.readWrite,
    baseUrl: sim.baseUrl,
    fetch: sim.fetch,
    dangerouslyAllowBrowser: true,
  });

  const { project, history } = await loadPositions(client, sim.now());
  byId('project').textContent = `${project.name} · ${project.websiteUrl}`;
  byId('keyword').textContent = keywordSubtitle(history);
  const dates = history.history.map((day) => day.check_date);
  const series = CHANNELS.map((c) => ({
    label: c.label,
    color: c.color,
    values: history.history.map((day) => day[c.key] ?? null),
  }));
  byId('positions').append(positionChart(dates, series));

  byId('visibility').append(percentBars(await loadVisibility(client, project.id)));
  byId('rate-limit').textContent = await rateLimitNotice();

  const events = await collectEvents(sim, client, project.id, received);
  const list = byId('events');
  // One line per event name (first seen, with a count): a simulated day sends many prompts.updated.
  const byName = new Map<string, { first: string; count: number }>();
  for (const event of events) {
    const seen = byName.get(event.event);
    if (seen) seen.count += 1;
    else byName.set(event.event, { first: event.timestamp, count: 1 });
  }
  for (const [name, { first, count }] of byName) {
    const item = document.createElement('li');
    item.dataset.event = name;
    item.textContent = `${first.slice(0, 16).replace('T', ' ')} · ${name}${count > 1 ? ` ×${count}` : ''}`;
    list.append(item);
  }
  document.body.dataset.status = 'ready';
}

main().catch((error: unknown) => {
  document.body.dataset.status = 'error';
  byId('error').textContent = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  console.error(error);
});
