// One Knex instance for the configured database: SQLite (better-sqlite3) by default, or
// MySQL/MariaDB (mysql2). Migrations in migrations/ serve both.
import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { migrationFiles } from './migration-files';

export type { Knex };

export function createDatabase(databaseUrl: string): Knex {
  if (databaseUrl.startsWith('sqlite:')) {
    const filename = databaseUrl.slice('sqlite:'.length) || ':memory:';
    if (filename !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(filename)), { recursive: true });
    return knexFactory({
      client: 'better-sqlite3',
      connection: { filename },
      useNullAsDefault: true,
      pool: {
        min: 1,
        max: 1,
        afterCreate(conn: { pragma(s: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
          conn.pragma('journal_mode = WAL');
          conn.pragma('synchronous = NORMAL');
          conn.pragma('foreign_keys = ON');
          conn.pragma('busy_timeout = 5000');
          done(null, conn);
        },
      },
    });
  }
  return knexFactory({
    client: 'mysql2',
    connection: { uri: databaseUrl, charset: 'utf8mb4', timezone: 'Z', supportBigNumbers: true } as Knex.MySql2ConnectionConfig & { uri: string },
    pool: { min: 0, max: 10 },
  });
}

/** Applies every pending migration; answers the batch number and the names applied. */
export async function migrateLatest(db: Knex): Promise<{ batch: number; applied: string[] }> {
  const [batch, applied] = (await db.migrate.latest({ migrationSource: migrationFiles() })) as [number, string[]];
  return { batch, applied };
}

/** Whether the database is SQLite: a few statements are written apart for each engine. */
export function isSqlite(db: Knex): boolean {
  // Knex types its client `any`; it is the Client of the configuration createDatabase gave.
  return (db.client as Knex.Client).config.client === 'better-sqlite3';
}

/** A database round trip, for /healthz. */
export async function ping(db: Knex): Promise<void> {
  await db.raw('select 1');
}
