// The migrations of migrations/ as knex loads them, from the TypeScript sources (tests, tsx) or
// from their compiled copies in dist-server/migrations (npm start runs plain JavaScript). Either way a
// migration keeps the name it was first recorded under in knex_migrations, its .ts file name,
// so a database migrated by one runs on with the other.
import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';

type Migration = Knex.Migration;

export class MigrationFiles implements Knex.MigrationSource<string> {
  constructor(
    private readonly dir: string,
    private readonly extension: '.ts' | '.js',
  ) {}

  getMigrations(): Promise<string[]> {
    const files = fs.readdirSync(this.dir).filter((f) => f.endsWith(this.extension) && !f.endsWith('.d.ts'));
    return Promise.resolve(files.sort().map((f) => f.slice(0, -this.extension.length) + '.ts'));
  }

  getMigrationName(name: string): string {
    return name;
  }

  getMigration(name: string): Promise<Migration> {
    const file = path.join(this.dir, name.slice(0, -'.ts'.length) + this.extension);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- knex migrations are CommonJS modules loaded by path
    return Promise.resolve(require(file) as Migration);
  }
}

/**
 * The migrations beside the running code: dist-server/migrations next to the compiled server
 * (`npm run build`), or the sources under tsx.
 */
export function migrationFiles(): MigrationFiles {
  const compiled = __filename.endsWith('.js');
  return compiled
    ? new MigrationFiles(path.resolve(__dirname, 'migrations'), '.js')
    : new MigrationFiles(path.resolve(__dirname, '../../../migrations'), '.ts');
}
