/**
 * A tool result over the size cap is cut; the API key must not survive the cut in part. The `api`
 * tool relays the server's reply, which may echo the key deep in a nested body: cut through the
 * key's middle and then scrubbed, its first half reached the agent (the scrub matches the key whole).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMcpServer } from '../../src/insights/mcp-server.js';

const KEY = 'sv_live_0123456789abcdef0123456789abcdef';

async function callCut(maxBytes: number): Promise<string> {
  const server = await createMcpServer({
    tools: [
      {
        name: 'echo',
        description: 'a reply that echoes the key deep in its body',
        input: z.object({}),
        annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
        run: async () => ({ data: { body: `${'x'.repeat(300)}${KEY}${'y'.repeat(300)}` } }),
      },
    ],
    redact: (text) => text.split(KEY).join('sv_live_…'),
    maxBytes,
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'redact-cut', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    const result = await client.callTool({ name: 'echo', arguments: {} });
    return (result.content as Array<{ text: string }>)[0]?.text ?? '';
  } finally {
    await client.close();
  }
}

describe('a tool result cut at --max-bytes', () => {
  it('holds no part of the key, wherever the cut falls', async () => {
    const leaks: number[] = [];
    // Caps from a cut before the key to a cut after it, one byte apart.
    for (let maxBytes = 540; maxBytes <= 640; maxBytes++) {
      const text = await callCut(maxBytes);
      if (text.includes(KEY.slice(8, 16))) leaks.push(maxBytes);
    }
    expect(leaks).toEqual([]);
  });
});
