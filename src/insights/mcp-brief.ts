/**
 * Rows without the ids the model does not need (names and figures tell it what it needs; ids only
 * fill its context), except an id that tells two rows apart: one keyword tracked in two locations
 * gives two rows that differ only by `keyword_id`, and without it they read as one row twice.
 * @example `briefRows([{ keyword_id: 'k1', project_id: 'p', keyword: 'boots' }])` → `[{ keyword: 'boots' }]`
 * @internal
 */
export function briefRows(rows: ReadonlyArray<Record<string, unknown>>): Array<Record<string, unknown>> {
  const ids = [...new Set(rows.flatMap((row) => Object.keys(row).filter((key) => key.endsWith('_id'))))];
  const dropped = new Set<string>();
  const without = (names: ReadonlySet<string>) =>
    rows.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => !names.has(key))));
  const distinct = (list: Array<Record<string, unknown>>) => new Set(list.map((row) => JSON.stringify(row))).size;
  const wanted = distinct(without(dropped));
  // One id at a time: dropped only when the rows stay as distinct as they were.
  for (const id of ids) {
    const next = new Set([...dropped, id]);
    if (distinct(without(next)) === wanted) dropped.add(id);
  }
  return without(dropped);
}
