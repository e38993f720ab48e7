import { InvalidArgumentError as CommanderArgumentError } from 'commander';
import { isUuid } from '../internal/uuid.js';
import { DATASET_NAMES, type DatasetName } from '../sync/index.js';

/**
 * Parsers of the command line's flag values. Each runs while the command line is parsed, before
 * anything is sent, and a refusal names the flag as the user typed it (`--project`), never the API
 * option behind it (`projects`). An empty value (`--project "$UNSET"`) is refused, never read as
 * "all" or as 0.
 * @internal
 */

/** A whole number from `min` up, written as digits (`''`, `1.5`, `1e3` and `-1` are refused). */
export function wholeNumber(flag: string, min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min)
      throw new CommanderArgumentError(`${flag} must be a whole number ≥ ${min}, got ${JSON.stringify(value)}`);
    return n;
  };
}

/** A value that is not empty (a file or folder name). */
export function nonEmpty(flag: string) {
  return (value: string): string => {
    if (value.trim() === '') throw new CommanderArgumentError(`${flag} needs a value, got an empty one`);
    return value;
  };
}

/** Comma-separated items of a flag, refusing an empty value or an empty list. */
function items(flag: string, value: string): string[] {
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length === 0) throw new CommanderArgumentError(`${flag} needs a value, got ${JSON.stringify(value)}`);
  return list;
}

/** `--project`: project UUIDs, repeatable or comma-separated. */
export function projectIds(value: string, previous: string[] = []): string[] {
  const ids = items('--project', value);
  const bad = ids.find((id) => !isUuid(id));
  if (bad !== undefined)
    throw new CommanderArgumentError(
      `--project expects project UUIDs such as 3f2b9c4e-8a1d-4c6e-9b7a-2d5e1f0a6c3b, got ${JSON.stringify(bad)}`,
    );
  return [...previous, ...ids];
}

/** `--datasets`: names of datasets, comma-separated. */
export function datasetNames(value: string): DatasetName[] {
  const names = items('--datasets', value);
  const unknown = names.filter((n) => !(DATASET_NAMES as readonly string[]).includes(n));
  if (unknown.length)
    throw new CommanderArgumentError(
      `--datasets: unknown dataset ${unknown.join(', ')}; known datasets: ${DATASET_NAMES.join(', ')}`,
    );
  return names as DatasetName[];
}
