import { readFileSync } from 'node:fs';
import type { FleetAccount } from '../fleet/index.js';
import type { DatasetName, SyncWindow } from '../sync/index.js';
import { UsageError } from './connect.js';

/**
 * One account in the accounts file: the environment variable that holds its key (the file never
 * holds a key), and what to copy.
 * @internal
 */
interface AccountEntry {
  keyEnv: string;
  projects?: 'all' | string[];
  datasets?: DatasetName[];
  reserve?: number;
  maxRequests?: number;
  baseUrl?: string;
  windows?: SyncWindow[];
}

const ENTRY_KEYS = ['keyEnv', 'projects', 'datasets', 'reserve', 'maxRequests', 'baseUrl', 'windows'];

/** The accounts file read, and the environment variables it names that are not set. @internal */
export interface AccountsFile {
  accounts: Record<string, FleetAccount>;
  /** `account: VARIABLE` for each key variable that is not set (names only, never values). */
  missingKeys: string[];
}

/**
 * Reads the accounts file:
 *
 * ```json
 * {
 *   "baseUrl": "https://api.example.com/api/v1",
 *   "accounts": {
 *     "acme":   { "keyEnv": "ACME_SEO_KEY" },
 *     "globex": { "keyEnv": "GLOBEX_SEO_KEY", "datasets": ["rankings.list"], "reserve": 2000 }
 *   }
 * }
 * ```
 *
 * `baseUrl` (top level or per account) falls back to `SEO_VISIBILITY_BASE_URL`. Each key is read
 * from the variable its account names; a variable that is not set is reported, by name, for the
 * commands that need keys to refuse.
 * @internal
 */
export function readAccountsFile(path: string, env: NodeJS.ProcessEnv = process.env): AccountsFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : error instanceof SyntaxError ? `not valid JSON (${error.message})` : String((error as Error).message);
    throw new UsageError(`--accounts ${path}: ${why}`);
  }
  const top = objectAt(parsed, `--accounts ${path}`, '{ "accounts": { "<id>": { "keyEnv": "<VARIABLE>" } } }');
  for (const key of Object.keys(top)) if (key !== 'accounts' && key !== 'baseUrl') throw new UsageError(`--accounts ${path}: unknown key "${key}" (the file takes "accounts" and "baseUrl")`);
  const entries = objectAt(top['accounts'], `--accounts ${path}: "accounts"`, '{ "<id>": { "keyEnv": "<VARIABLE>" } }');
  if (Object.keys(entries).length === 0) throw new UsageError(`--accounts ${path}: "accounts" is empty`);
  const sharedUrl = top['baseUrl'] ?? env['SEO_VISIBILITY_BASE_URL'];
  const accounts: Record<string, FleetAccount> = {};
  const missingKeys: string[] = [];
  for (const [id, raw] of Object.entries(entries)) {
    const where = `--accounts ${path}: account "${id}"`;
    const entry = objectAt(raw, where, '{ "keyEnv": "<VARIABLE>" }') as Partial<AccountEntry>;
    for (const key of Object.keys(entry)) if (!ENTRY_KEYS.includes(key)) throw new UsageError(`${where}: unknown key "${key}" (an account takes ${ENTRY_KEYS.join(', ')})`);
    if (typeof entry.keyEnv !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(entry.keyEnv)) throw new UsageError(`${where}: "keyEnv" must name the environment variable holding its API key, such as "ACME_SEO_KEY"`);
    const apiKey = env[entry.keyEnv];
    if (!apiKey) missingKeys.push(`${id}: ${entry.keyEnv}`);
    const baseUrl = entry.baseUrl ?? sharedUrl;
    accounts[id] = {
      apiKey: apiKey ?? '',
      job: { projects: entry.projects ?? 'all', ...(entry.datasets ? { datasets: entry.datasets } : {}) },
      client: { ...(typeof baseUrl === 'string' ? { baseUrl } : {}), ...(entry.windows ? { rateLimit: { windows: entry.windows } } : {}) },
      budget: { ...(entry.reserve !== undefined ? { reserve: entry.reserve } : {}), ...(entry.maxRequests !== undefined ? { maxRequests: entry.maxRequests } : {}) },
    };
  }
  return { accounts, missingKeys };
}

function objectAt(value: unknown, where: string, example: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`${where}: expected an object such as ${example}`);
  return value as Record<string, unknown>;
}
