// Database errors both engines raise, recognised in one place.

/** A unique-key violation on MariaDB/MySQL or SQLite. */
export function isDuplicateKey(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
