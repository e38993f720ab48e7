import type { McpServer as McpServerType } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StdioServerTransport as StdioType } from '@modelcontextprotocol/sdk/server/stdio.js';
import { VERSION } from '../index.js';
import { loadPeer } from './errors.js';
import type { ToolDef } from './mcp-tools.js';

type McpModule = { McpServer: typeof McpServerType };
type StdioModule = { StdioServerTransport: typeof StdioType };

/**
 * Serves `tools` over stdio with the MCP SDK until the client disconnects. Every result and error
 * goes through `redact`, so a secret (the API key) can never reach the client, whatever a tool or
 * an error message holds.
 * @internal
 */
export async function serveMcp(tools: readonly ToolDef[], redact: (text: string) => string): Promise<{ closed: Promise<void> }> {
  const purpose = 'seo-visibility mcp';
  const { McpServer } = await loadPeer<McpModule>('@modelcontextprotocol/sdk/server/mcp.js', purpose);
  const { StdioServerTransport } = await loadPeer<StdioModule>('@modelcontextprotocol/sdk/server/stdio.js', purpose);
  const server = new McpServer({ name: 'seo-visibility', version: VERSION });
  for (const tool of tools) {
    server.registerTool(tool.name, { description: tool.description, inputSchema: tool.input, annotations: { readOnlyHint: tool.name !== 'api', openWorldHint: tool.name === 'api' } }, async (args: Record<string, unknown>) => {
      try {
        const result = await tool.run(args);
        return { content: [{ type: 'text' as const, text: redact(JSON.stringify(result, bigintSafe, 1)) }] };
      } catch (error) {
        return { isError: true, content: [{ type: 'text' as const, text: redact(`${(error as Error)?.name ?? 'Error'}: ${(error as Error)?.message ?? String(error)}`) }] };
      }
    });
  }
  await server.connect(new StdioServerTransport());
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  return { closed: closed.then(() => server.close()) };
}

/** BigInt values (SQLite may return them) as numbers where exact, else strings. */
function bigintSafe(_key: string, value: unknown): unknown {
  if (typeof value !== 'bigint') return value;
  return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value.toString();
}
