import { InvalidArgumentError as CommanderArgumentError } from 'commander';

/** Parses a whole-number option (at least `min`), with a message naming the option. @internal */
export function integer(name: string, min = 0) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new CommanderArgumentError(`${name} must be a whole number ≥ ${min}, got "${value}"`);
    return n;
  };
}
