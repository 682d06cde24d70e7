// What a raw statement answers, read the same way on both engines.

/** Rows of a raw statement: mysql2 answers [rows, fields], better-sqlite3 the rows. */
export function rowsOf<T>(result: unknown): T[] {
  const r = result as unknown[];
  return (Array.isArray(r[0]) ? r[0] : r) as T[];
}

/** Rows a raw UPDATE or DELETE changed: mysql2's affectedRows, better-sqlite3's changes. */
export function changedRows(result: unknown): number {
  const header = (Array.isArray(result) ? result[0] : result) as { affectedRows?: number; changes?: number } | undefined;
  return Number(header?.affectedRows ?? header?.changes ?? 0);
}
