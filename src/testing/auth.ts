import { hash32 } from './data/rng.js';

/**
 * The two API keys a simulator accepts. Both have the documented form `<prefix>live_<random>`.
 *
 * @example
 * ```ts
 * const client = new SeoVisibilityClient({ apiKey: sim.keys.readOnly, baseUrl: sim.baseUrl, fetch: sim.fetch });
 * ```
 */
export interface SimulatorKeys {
  /** Read + Write (scope `write:all`): every endpoint. */
  readWrite: string;
  /** Read Only: GET endpoints; any other method answers 403 FORBIDDEN. */
  readOnly: string;
}

/** What a key may do. @internal */
export type KeyScope = 'read' | 'write';

/**
 * Keys derived from the seed (`sv_live_rw_…`, `sv_live_ro_…`) unless given.
 * @example `makeKeys(1).readWrite // 'sv_live_rw_…' (same for seed 1 on every run)`
 * @internal
 */
export function makeKeys(seed: number, given: Partial<SimulatorKeys> = {}): SimulatorKeys {
  const random = (kind: string) =>
    [0, 1, 2].map((i) => hash32(seed, 'api-key', kind, i).toString(36).padStart(7, '0')).join('');
  return {
    readWrite: given.readWrite ?? `sv_live_rw_${random('rw')}`,
    readOnly: given.readOnly ?? `sv_live_ro_${random('ro')}`,
  };
}

/**
 * The scope of the `Authorization: Bearer <key>` header, or `undefined` for a missing/unknown key.
 * @example `authenticate(request.headers.get('authorization'), sim.keys) // 'write'`
 * @internal
 */
export function authenticate(header: string | null, keys: SimulatorKeys): { key: string; scope: KeyScope } | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  const key = match?.[1];
  if (key === keys.readWrite) return { key, scope: 'write' };
  if (key === keys.readOnly) return { key, scope: 'read' };
  return undefined;
}

/**
 * Header record with the key hidden, for the request log (a key must never reach a log line).
 * @example `redactHeaders(request.headers).authorization // 'Bearer [REDACTED]'`
 * @internal
 */
export function redactHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] =
      name === 'authorization'
        ? value.replace(/^(\S+\s+)?.*$/, (_m, scheme: string | undefined) => `${scheme ?? ''}[REDACTED]`)
        : value;
  });
  return out;
}
