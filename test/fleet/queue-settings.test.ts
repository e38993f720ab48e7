import { describe, expect, it } from 'vitest';
import { queueSettings } from '../../src/fleet/queue.js';
import { DEFAULT_SCHEMA } from '../../src/fleet/warehouse.js';

describe('queueSettings: one queue per fleet', () => {
  it('two warehouse schemas never share a queue, even under one queue name', () => {
    const a = queueSettings(undefined, 'fleet_a');
    const b = queueSettings(undefined, 'fleet_b');
    expect(a.name).not.toBe(b.name);
    expect(queueSettings({ name: 'nightly' }, 'fleet_a').name).not.toBe(
      queueSettings({ name: 'nightly' }, 'fleet_b').name,
    );
  });

  it('the default schema keeps the queue name as given (jobs queued before an upgrade are still found)', () => {
    expect(queueSettings(undefined, DEFAULT_SCHEMA).name).toBe('seo-visibility-sync');
    expect(queueSettings({ name: 'nightly' }, DEFAULT_SCHEMA).name).toBe('nightly');
  });

  it('another schema is named after it, in a form no queue name option can take (it has a /)', () => {
    expect(queueSettings(undefined, 'fleet_a').name).toBe('seo-visibility-sync/fleet_a');
    expect(queueSettings({ name: 'nightly' }, 'fleet_a').name).toBe('nightly/fleet_a');
  });
});
