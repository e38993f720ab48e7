import type { Command } from 'commander';
import { InsightError } from '../insights/errors.js';
import { apiTool } from '../insights/mcp-api-tool.js';
import { serveMcp } from '../insights/mcp-server.js';
import { storeTools } from '../insights/mcp-tools.js';
import { openSource } from '../insights/open-source.js';
import { type Connection, connect } from './connect.js';
import { EXIT, exitHelp } from './exit-codes.js';
import { wholeNumber } from './flags.js';
import { type CommandIO, storeOptions, withStoreErrors } from './store-options.js';

/** `seo-visibility mcp`: the synced store as tools for AI agents, over stdio. @internal */
export function registerMcp(program: Command, io: CommandIO): void {
  storeOptions(program.command('mcp'))
    .description('Serve the synced store to AI agents over MCP (stdio): schema, read-only sql, rank_changes, ai_visibility, backlink_changes, audit_changes; api with --live.')
    .option('--live', 'add the api tool: live calls through the SDK (SEO_VISIBILITY_API_KEY, SEO_VISIBILITY_BASE_URL)')
    .option('--allow-writes', 'let the api tool send POST, PATCH and DELETE (GET only by default)')
    .option('--reserve <n>', "requests of the day's budget the api tool leaves free", wholeNumber('--reserve', 0), 1000)
    .option('--max-rows <n>', 'rows one query returns at most', wholeNumber('--max-rows', 1), 500)
    .option('--timeout <ms>', 'statement time limit in milliseconds', wholeNumber('--timeout', 1), 5000)
    .addHelpText(
      'after',
      `
Examples:
  $ seo-visibility mcp --db seo.db
  $ seo-visibility mcp --postgres postgres://reader@db.internal/seo --live

An MCP client's configuration (Claude Desktop, Cursor, …):
  { "mcpServers": { "seo": { "command": "npx", "args": ["seo-visibility", "mcp", "--db", "/path/to/seo.db"] } } }
${exitHelp('mcp')}`,
    )
    .action(async (opts) => io.setExit(await mcpCommand(opts, io)));
}

interface McpOptions {
  db?: string;
  postgres?: string;
  schema: string;
  live?: boolean;
  allowWrites?: boolean;
  reserve: number;
  maxRows: number;
  timeout: number;
  simulator?: boolean;
}

async function mcpCommand(opts: McpOptions, io: CommandIO): Promise<number> {
  return withStoreErrors(io, async (source) => {
    let connection: Connection | undefined;
    try {
      if (opts.allowWrites && !opts.live) throw new InsightError('usage', '--allow-writes needs --live (it applies to the api tool)');
      const tools = storeTools(source, { maxRows: opts.maxRows, timeoutMs: opts.timeout });
      if (opts.live) {
        connection = await connect({ simulator: opts.simulator });
        tools.push(apiTool({ client: connection.client, windows: connection.windows, reserve: opts.reserve, allowWrites: opts.allowWrites ?? false }));
      }
      const key = process.env['SEO_VISIBILITY_API_KEY'];
      const redact = (text: string) => (key ? text.replaceAll(key, '***') : text);
      const { closed } = await serveMcp(tools, redact);
      io.err.write(`seo-visibility mcp: serving ${source.location} over stdio; tools: ${tools.map((t) => t.name).join(', ')}\n`);
      await Promise.race([closed, new Promise((resolve) => io.signal.addEventListener('abort', resolve, { once: true }))]);
      return EXIT.done;
    } finally {
      await connection?.close();
    }
  }, opts, openSource);
}
