// A fresh MariaDB database for one benchmark, dropped afterwards.
import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';

export const MYSQL_ADMIN_URL = process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';

function admin(): Knex {
  return knexFactory({ client: 'mysql2', connection: { uri: MYSQL_ADMIN_URL } as never, pool: { min: 0, max: 1 } });
}

export interface BenchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export async function createBenchDatabase(label: string): Promise<BenchDatabase> {
  const name = `letschat_bench_${label}_${crypto.randomBytes(3).toString('hex')}`;
  const db = admin();
  try {
    await db.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await db.destroy();
  }
  return {
    name,
    url: `${MYSQL_ADMIN_URL}/${name}`,
    async drop() {
      const d = admin();
      try {
        await d.raw(`DROP DATABASE IF EXISTS \`${name}\``);
      } finally {
        await d.destroy();
      }
    },
  };
}
