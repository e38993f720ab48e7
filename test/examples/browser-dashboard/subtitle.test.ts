import { describe, expect, it } from 'vitest';
import { loadPositions } from '../../../examples/browser-dashboard/load.js';
import { CHANNELS } from '../../../examples/browser-dashboard/channels.js';
import { keywordSubtitle } from '../../../examples/browser-dashboard/subtitle.js';
import { SeoVisibilityClient } from '../../../src/index.js';
import { createSimulator } from '../../../src/testing/index.js';

// The dashboard's subtitle must say what its chart shows: the best and worst positions among the
// lines drawn (four channels), not the server's summary of one channel.
describe('the dashboard subtitle', () => {
  it.each([1, 2, 3])('seed %i: best and worst are those of the plotted lines', async (seed) => {
    const sim = createSimulator({ seed, rateLimit: false });
    const client = new SeoVisibilityClient({ apiKey: sim.keys.readOnly, baseUrl: sim.baseUrl, fetch: sim.fetch });
    const { history } = await loadPositions(client, sim.now());
    const plotted = history.history.flatMap((day) =>
      CHANNELS.map((c) => day[c.key]).filter((v): v is number => typeof v === 'number'),
    );
    const subtitle = keywordSubtitle(history);
    expect(subtitle).toContain(`best #${Math.min(...plotted)}`);
    expect(subtitle).toContain(`worst #${Math.max(...plotted)}`);
    expect(subtitle).toContain(`${history.history.length} days`);
  });
});
