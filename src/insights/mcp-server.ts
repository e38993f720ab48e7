import type { McpServer as McpServerType } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StdioServerTransport as StdioType } from '@modelcontextprotocol/sdk/server/stdio.js';
import { VERSION } from '../index.js';
import { loadPeer } from './errors.js';
import { cutText, toolText } from './mcp-output.js';
import type { PromptDef } from './mcp-prompts.js';
import type { ToolDef } from './mcp-tools.js';

type McpModule = { McpServer: typeof McpServerType };
type StdioModule = { StdioServerTransport: typeof StdioType };

/** The optional package the MCP server runs on (its import paths are sub-paths of it). */
const MCP_PACKAGE = '@modelcontextprotocol/sdk';

/** What the server offers and how it answers. @internal */
export interface McpOffer {
  tools: readonly ToolDef[];
  prompts?: readonly PromptDef[] | undefined;
  /** Scrubs a secret (the API key) from every result and error. */
  redact: (text: string) => string;
  /** Bytes of one tool result at most (see mcp-output.ts). */
  maxBytes: number;
}

/**
 * An MCP server with the tools and prompts of `offer`, not yet connected to a transport (the tests
 * connect it in memory, {@link serveMcp} to stdio). Every result and error goes through `redact`,
 * so a secret (the API key) can never reach the client, whatever a tool or an error message holds.
 * @internal
 */
export async function createMcpServer(offer: McpOffer): Promise<McpServerType> {
  const { McpServer } = await loadPeer<McpModule>(`${MCP_PACKAGE}/server/mcp.js`, 'seo-visibility mcp', MCP_PACKAGE);
  const server = new McpServer({ name: 'seo-visibility', version: VERSION });
  for (const tool of offer.tools) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: tool.input, annotations: tool.annotations },
      // `extra.signal` aborts when the client cancels the call (notifications/cancelled): the tool stops its query.
      async (args: Record<string, unknown>, extra: { signal: AbortSignal }) => {
        try {
          const result = await tool.run(args, { signal: extra.signal });
          return {
            // toolText masks the key in the whole text before it cuts: every part it returns is masked.
            content: [{ type: 'text' as const, text: toolText(result, offer.maxBytes, offer.redact) }],
          };
        } catch (error) {
          return {
            isError: true,
            content: [
              {
                type: 'text' as const,
                text: offer.redact(
                  `${(error as Error)?.name ?? 'Error'}: ${(error as Error)?.message ?? String(error)}`,
                ),
              },
            ],
          };
        }
      },
    );
  }
  for (const prompt of offer.prompts ?? []) {
    server.registerPrompt(
      prompt.name,
      { description: prompt.description, argsSchema: prompt.args },
      async (args: Record<string, string | undefined>, extra: { signal: AbortSignal }) => ({
        description: prompt.description,
        messages: [
          // Capped as a tool result is: a prompt's message fills the same context.
          {
            role: 'user' as const,
            content: {
              type: 'text' as const,
              text: cutText(offer.redact(await prompt.text(args, { signal: extra.signal })), offer.maxBytes),
            },
          },
        ],
      }),
    );
  }
  return server;
}

/**
 * Serves `offer` over stdio with the MCP SDK until the client disconnects.
 * @internal
 */
export async function serveMcp(offer: McpOffer): Promise<{ closed: Promise<void> }> {
  const server = await createMcpServer(offer);
  const { StdioServerTransport } = await loadPeer<StdioModule>(
    `${MCP_PACKAGE}/server/stdio.js`,
    'seo-visibility mcp',
    MCP_PACKAGE,
  );
  await server.connect(new StdioServerTransport());
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  return { closed: closed.then(() => server.close()) };
}
