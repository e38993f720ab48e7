/**
 * How the simulator answered one request: a response, or a dropped connection. Its own module so
 * the pipeline and the chaos mode that changes its answers can both name it without importing
 * each other.
 * @example `const outcome: Outcome = { kind: 'drop' };`
 * @internal
 */
export type Outcome = { kind: 'response'; response: Response } | { kind: 'drop' };
