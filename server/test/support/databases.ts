// The databases every integration suite runs against: a fresh SQLite file and a fresh MariaDB
// database per suite. MariaDB missing: loud skip on a developer's machine, failure under CI.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';

export const MYSQL_ADMIN_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
export const IN_CI = process.env.CI === 'true';

export interface TestDatabase {
  kind: 'sqlite' | 'mysql';
  /** Creates a fresh, empty database and returns its DATABASE_URL. */
  create(): Promise<string>;
  /** Drops what create() made. */
  drop(): Promise<void>;
}

function sqlite(): TestDatabase {
  let dir = '';
  return {
    kind: 'sqlite',
    async create() {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'letschat-test-'));
      return `sqlite:${path.join(dir, 'test.sqlite3')}`;
    },
    async drop() {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function mysql(): TestDatabase {
  let name = '';
  const admin = () => knexFactory({ client: 'mysql2', connection: { uri: MYSQL_ADMIN_URL } as never, pool: { min: 0, max: 1 } });
  return {
    kind: 'mysql',
    async create() {
      name = `letschat_t_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
      const db = admin();
      try {
        await db.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      } finally {
        await db.destroy();
      }
      return `${MYSQL_ADMIN_URL}/${name}`;
    },
    async drop() {
      if (!name) return;
      const db = admin();
      try {
        await db.raw(`DROP DATABASE IF EXISTS \`${name}\``);
      } finally {
        await db.destroy();
      }
    },
  };
}

let mysqlReachable: Promise<boolean> | null = null;

export function isMysqlReachable(): Promise<boolean> {
  mysqlReachable ??= (async () => {
    const db = knexFactory({ client: 'mysql2', connection: { uri: MYSQL_ADMIN_URL, connectTimeout: 3000 } as never, pool: { min: 0, max: 1 } });
    try {
      await db.raw('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await db.destroy();
    }
  })();
  return mysqlReachable;
}

/**
 * Runs `suite` once per database engine. Inside, `this.databaseUrl()` is the fresh database's
 * URL (created in before, dropped in after).
 */
export function forEachDatabase(title: string, suite: (db: { url(): string; kind: TestDatabase['kind'] }) => void): void {
  for (const make of [sqlite, mysql]) {
    const database = make();
    describe(`${title} (${database.kind})`, function () {
      let url = '';
      before(async function () {
        if (database.kind === 'mysql' && !(await isMysqlReachable())) {
          const message = `MariaDB/MySQL is not reachable at ${MYSQL_ADMIN_URL}`;
          if (IN_CI) throw new Error(`${message}: CI must run every test`);
          console.warn(`\n  !!! SKIPPING "${title}" on MySQL: ${message}\n`);
          this.skip();
        }
        url = await database.create();
      });
      after(async () => {
        await database.drop();
      });
      suite({ url: () => url, kind: database.kind });
    });
  }
}
