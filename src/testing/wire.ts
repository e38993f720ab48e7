/**
 * How the simulator turns the SDK's response types (each `z.infer` of a resource's zod schema)
 * into the records it serves, so a field is declared once: in the resource's schema. Types only:
 * nothing here, and nothing it imports, exists at run time.
 *
 * @example
 * ```ts
 * import type { Audit } from '../resources/audits.js';
 * type AuditRecord = Wire<Audit>; // every documented field, enums closed, no `[k: string]: unknown`
 * ```
 * @internal
 */

/**
 * The documented values of an open enum (`'a' | 'b' | (string & {})`, see `openEnum`): the
 * simulator only ever serves documented values. A type with no literal in it (`string`,
 * `number | null`) is left as it is; non-string members (`null`) are kept.
 *
 * @example `type S = Closed<AuditStatus>; // 'pending' | 'crawling' | 'processing' | 'completed' | 'failed'`
 * @internal
 */
export type Closed<T> = [Literals<T>] extends [never] ? T : Literals<T> | Exclude<T, string>;

/** The string literal members of `T` (`never` for a plain `string`). */
type Literals<T> = T extends string ? (string extends T ? never : T) : never;

/**
 * A loose object's index signature (`[k: string]: unknown`, kept by the SDK so fields the server
 * adds later survive) is dropped: the simulator serves exactly the fields it declares, and a
 * typo in a generator must fail to compile. A real map (`Record<string, ModelResponse>`) is kept;
 * a map of `unknown` (`WebhookTestEvent['data']`) cannot be told from a loose object and becomes
 * `{}`: give such a field its own type (as `EventPayload` does).
 */
type KnownKey<T, K extends keyof T> = string extends K
  ? unknown extends T[K]
    ? never
    : K
  : number extends K
    ? never
    : K;

/**
 * The wire record the simulator serves for an SDK response type `T`: the same fields, nested
 * objects and arrays included, with open enums closed to their documented values and the loose
 * objects' index signatures dropped. Optional fields (the SDK's guesses for what the reference
 * leaves "not shown") stay optional: {@link Served} says which ones the simulator fills.
 *
 * @example `type Row = Wire<KeywordRanking>; // { keyword: string; …; id?: string; keyword_id?: string }`
 * @internal
 */
// The primitive members are closed together (an open enum is one union: `'a' | 'b' | (string & {})`);
// the object members (`ContentMetaData | null`, arrays) are mapped one by one.
// (Split on primitives, not on `object`: TypeScript counts `string & {}` as an object.)
export type Wire<T> = Closed<Extract<T, Primitive>> | WireObject<Exclude<T, Primitive>>;

type Primitive = string | number | boolean | bigint | symbol | null | undefined;

/** An object or array member of {@link Wire}'s `T`, mapped field by field. */
type WireObject<O> = O extends readonly (infer E)[] ? Wire<E>[] : { [K in keyof O as KnownKey<O, K>]: Wire<O[K]> };

/**
 * {@link Wire} with the optional fields `K` made present: the simulator's choice of which
 * "not shown" fields it serves (each one's type still comes from the SDK's schema).
 *
 * @example `type Domain = Served<ReferringDomain, 'domain' | 'domain_rank'>; // both required`
 * @internal
 */
export type Served<T, K extends keyof Wire<T>> = Omit<Wire<T>, K> & { [P in K]-?: Exclude<Wire<T>[P], undefined> };
