import type { Command } from 'commander';
import { checkAccount } from '../insights/account-choice.js';
import { InsightError } from '../insights/errors.js';
import { apiTool } from '../insights/mcp-api-tool.js';
import { storePrompts } from '../insights/mcp-prompts.js';
import { serveMcp } from '../insights/mcp-server.js';
import { storeTools } from '../insights/mcp-tools.js';
import { openSource } from '../insights/open-source.js';
import { type Connection, connect } from './connect.js';
import { EXIT, exitHelp } from './exit-codes.js';
import { nonEmpty, wholeNumber } from './flags.js';
import { type CommandIO, storeOptions, withStoreErrors } from './store-options.js';
import { ENV } from '../internal/env-names.js';

/** `seo-visibility mcp`: the synced store as tools for AI agents, over stdio. @internal */
export function registerMcp(program: Command, io: CommandIO): void {
  storeOptions(program.command('mcp'))
    .description(
      'Serve the synced store to AI agents over MCP (stdio): schema, read-only sql, rank_changes, ai_visibility, backlink_changes, audit_changes; api with --live.',
    )
    .option(
      '--account <id>',
      'one account of a fleet warehouse (its account_id): the view tools, prompts and project names read only its rows (the sql tool is told, not filtered); every account, rows labelled and grouped by account, by default',
      nonEmpty('--account'),
    )
    .option('--live', `add the api tool: live calls through the SDK (${ENV.apiKey}, ${ENV.baseUrl})`)
    .option('--allow-writes', 'let the api tool send POST, PATCH and DELETE (GET only by default)')
    .option('--reserve <n>', "requests of the day's budget the api tool leaves free", wholeNumber('--reserve', 0), 1000)
    .option('--max-rows <n>', 'rows one query returns at most', wholeNumber('--max-rows', 1), 500)
    .option(
      '--max-bytes <n>',
      'bytes one tool result holds at most (rows past it are cut, and the result says so)',
      wholeNumber('--max-bytes', 1000),
      50_000,
    )
    .option(
      '--timeout <ms>',
      'time limit of one query in milliseconds, held in the store and on this side',
      wholeNumber('--timeout', 1),
      5000,
    )
    .addHelpText(
      'after',
      `
Examples:
  $ seo-visibility mcp --db seo.db
  $ seo-visibility mcp --postgres postgres://seo_agent@db.internal/seo --live
  $ seo-visibility mcp --postgres postgres://seo_agent@db.internal/seo --schema seo_visibility_fleet --account acme

PostgreSQL: connect as a role that can only SELECT the store (not a superuser, not the sync's
role); the server refuses any other and prints the SQL that makes one.

An MCP client's configuration (Claude Desktop, Cursor, …); npx installs the optional
@modelcontextprotocol/sdk only when named (add "-p", "pg" for --postgres):
  { "mcpServers": { "seo": { "command": "npx", "args": ["-y", "-p", "seo-visibility", "-p", "@modelcontextprotocol/sdk", "seo-visibility", "mcp", "--db", "/path/to/seo.db"] } } }
${exitHelp('mcp')}`,
    )
    .action(async (opts) => io.setExit(await mcpCommand(opts, io)));
}

interface McpOptions {
  db?: string;
  postgres?: string;
  schema: string;
  account?: string;
  live?: boolean;
  allowWrites?: boolean;
  reserve: number;
  maxRows: number;
  maxBytes: number;
  timeout: number;
  simulator?: boolean;
}

async function mcpCommand(opts: McpOptions, io: CommandIO): Promise<number> {
  return withStoreErrors(
    io,
    async (source) => {
      let connection: Connection | undefined;
      try {
        if (opts.allowWrites && !opts.live)
          throw new InsightError('usage', '--allow-writes needs --live (it applies to the api tool)');
        const limits = { maxRows: opts.maxRows, maxBytes: opts.maxBytes, timeoutMs: opts.timeout };
        // An account the warehouse does not hold is refused before serving, listing those it holds.
        if (opts.account !== undefined) await checkAccount(source, opts.account);
        const scope = { account: opts.account };
        const tools = storeTools(source, limits, scope);
        if (opts.live) {
          connection = await connect({ simulator: opts.simulator });
          tools.push(
            apiTool({
              client: connection.client,
              windows: connection.windows,
              reserve: opts.reserve,
              allowWrites: opts.allowWrites ?? false,
            }),
          );
        }
        const key = process.env[ENV.apiKey];
        const redact = (text: string) => (key ? text.replaceAll(key, '***') : text);
        const { closed } = await serveMcp({
          tools,
          prompts: storePrompts(source, limits, scope),
          redact,
          maxBytes: opts.maxBytes,
        });
        io.err.write(
          `seo-visibility mcp: serving ${source.location}${opts.account === undefined ? '' : `, account ${opts.account}`} over stdio; tools: ${tools.map((t) => t.name).join(', ')}\n`,
        );
        await Promise.race([
          closed,
          new Promise((resolve) => io.signal.addEventListener('abort', resolve, { once: true })),
        ]);
        return EXIT.done;
      } finally {
        await connection?.close();
      }
    },
    { ...opts, forAgents: true, timeoutMs: opts.timeout },
    openSource,
  );
}
