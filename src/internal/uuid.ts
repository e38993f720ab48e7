/**
 * What the SDK, the sync and the simulator all mean by a UUID: the canonical 8-4-4-4-12 hex shape,
 * any version, either case. The API documents ids as UUIDs without naming a version, so none is
 * required.
 *
 * @internal
 */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a string in the UUID shape. @internal */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
