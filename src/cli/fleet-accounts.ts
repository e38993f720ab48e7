import { readFileSync } from 'node:fs';
import type { FleetAccount } from '../fleet/index.js';
import { apiKey as checkApiKey } from '../internal/validate.js';
import type { DatasetName, SyncWindow } from '../sync/index.js';
import { UsageError } from './connect.js';
import { findDuplicateKeys } from './json-duplicates.js';
import { ENV } from '../internal/env-names.js';

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

/**
 * A key variable's name: upper-case letters, digits and `_`, as environment variables are named by
 * convention. A key (`<prefix>live_<random>`) has lower-case letters, so a key pasted where its
 * variable's name belongs can never pass for a name, and only a name that passes is ever printed.
 */
const VARIABLE_NAME = /^[A-Z_][A-Z0-9_]*$/;

/** The accounts file read, and the environment variables it names that are not set. @internal */
export interface AccountsFile {
  accounts: Record<string, FleetAccount>;
  /** `account: VARIABLE` for each key variable that is not set (names only, never values). */
  missingKeys: string[];
  /** `account: VARIABLE holds …` for each key variable whose value cannot be a key (a trailing CR/LF, a space), never the value. */
  malformedKeys: string[];
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
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
    parsed = JSON.parse(text);
  } catch (error) {
    const why =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'no such file'
        : error instanceof SyntaxError
          ? `not valid JSON (${error.message})`
          : String((error as Error).message);
    throw new UsageError(`--accounts ${path}: ${why}`);
  }
  refuseDuplicates(path, text);
  const top = objectAt(parsed, `--accounts ${path}`, '{ "accounts": { "<id>": { "keyEnv": "<VARIABLE>" } } }');
  for (const key of Object.keys(top))
    if (key !== 'accounts' && key !== 'baseUrl')
      throw new UsageError(`--accounts ${path}: unknown key "${key}" (the file takes "accounts" and "baseUrl")`);
  const entries = objectAt(top['accounts'], `--accounts ${path}: "accounts"`, '{ "<id>": { "keyEnv": "<VARIABLE>" } }');
  if (Object.keys(entries).length === 0) throw new UsageError(`--accounts ${path}: "accounts" is empty`);
  const sharedUrl = top['baseUrl'] ?? env[ENV.baseUrl];
  const accounts: Record<string, FleetAccount> = {};
  const missingKeys: string[] = [];
  const malformedKeys: string[] = [];
  for (const [id, raw] of Object.entries(entries)) {
    const where = `--accounts ${path}: account "${id}"`;
    const entry = objectAt(raw, where, '{ "keyEnv": "<VARIABLE>" }') as Partial<AccountEntry>;
    for (const key of Object.keys(entry))
      if (!ENTRY_KEYS.includes(key))
        throw new UsageError(`${where}: unknown key "${key}" (an account takes ${ENTRY_KEYS.join(', ')})`);
    // The value is never echoed: when it is not a name, it may well be the key itself.
    if (typeof entry.keyEnv !== 'string' || !VARIABLE_NAME.test(entry.keyEnv))
      throw new UsageError(
        `${where}: "keyEnv" is not a valid variable name (not printed, in case it is the key itself). It must name the environment variable that holds the key: upper-case letters, digits and _, such as "ACME_SEO_KEY"; the key goes in that variable, never in this file`,
      );
    const apiKey = env[entry.keyEnv];
    if (!apiKey) missingKeys.push(`${id}: ${entry.keyEnv}`);
    else if (!isWellFormedKey(apiKey))
      malformedKeys.push(
        `${id}: ${entry.keyEnv} holds whitespace, control or non-ASCII characters (a trailing newline or CR from a .env file?)`,
      );
    const baseUrl = entry.baseUrl ?? sharedUrl;
    accounts[id] = {
      apiKey: apiKey ?? '',
      job: { projects: entry.projects ?? 'all', ...(entry.datasets ? { datasets: entry.datasets } : {}) },
      client: {
        ...(typeof baseUrl === 'string' ? { baseUrl } : {}),
        ...(entry.windows ? { rateLimit: { windows: entry.windows } } : {}),
      },
      budget: {
        ...(entry.reserve !== undefined ? { reserve: entry.reserve } : {}),
        ...(entry.maxRequests !== undefined ? { maxRequests: entry.maxRequests } : {}),
      },
    };
  }
  return { accounts, missingKeys, malformedKeys };
}

/**
 * Refuses, as a usage error, a file whose key variables are not all set and sendable: for the
 * commands that call the API on every account's key. `why` (a sentence) says why each key is needed.
 * Names and accounts only, never a value.
 * @example `requireAccountKeys(readAccountsFile('accounts.json'), "Every worker needs every account's key.")`
 * @internal
 */
export function requireAccountKeys(file: AccountsFile, why: string): void {
  if (file.missingKeys.length)
    throw new UsageError(`These key variables are not set: ${file.missingKeys.join(', ')}. ${why}`);
  if (file.malformedKeys.length)
    throw new UsageError(
      `These keys cannot be sent: ${file.malformedKeys.join('; ')}. Set each variable to the key alone.`,
    );
}

/** Whether the client would take `key` (the SDK's own rule, which never echoes it). */
function isWellFormedKey(key: string): boolean {
  try {
    checkApiKey(key);
    return true;
  } catch {
    return false;
  }
}

/** Refuses a key written twice in one object: JSON keeps the last silently, and an account would vanish. */
function refuseDuplicates(path: string, text: string): void {
  const [twice] = findDuplicateKeys(text);
  if (!twice) return;
  const at = (p: { line: number; column: number }) => `line ${p.line}, column ${p.column}`;
  const what =
    twice.path.length === 1 && twice.path[0] === 'accounts'
      ? `account "${twice.key}"`
      : twice.path.length === 2 && twice.path[0] === 'accounts'
        ? `"${twice.key}" of account "${twice.path[1]}"`
        : `"${[...twice.path, twice.key].join('.')}"`;
  throw new UsageError(
    `--accounts ${path}: ${what} is given twice: ${at(twice.first)} and ${at(twice.second)}. JSON would keep only the second; remove or rename one`,
  );
}

function objectAt(value: unknown, where: string, example: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError(`${where}: expected an object such as ${example}`);
  return value as Record<string, unknown>;
}
