// Admin CLI for operators, QA and load tests. Honours DATABASE_URL like the server.
//   npm run --silent admin -- migrate
//   npm run --silent admin -- user:add --email E --name N --password P
//   npm run --silent admin -- seed --users N --password P --prefix X
// Each command prints one JSON line on success; errors go to stderr with exit code 1.
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config';
import { createDatabase, migrateLatest, type Knex } from '../db/knex';
import { createVerifiedUser, InvalidAccountInputError } from '../features/accounts/create-user';
import { DuplicateEmailError, UsersRepository } from '../features/accounts/users-repository';
import { seedUsers } from './seed';

class CliError extends Error {}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000) throw new InvalidArgumentError('must be an integer from 1 to 1000000');
  return n;
}

/** Opens the configured database, migrated, for the length of one command. */
async function withDatabase<T>(work: (db: Knex) => Promise<T>): Promise<T> {
  const db = createDatabase(loadConfig().databaseUrl);
  try {
    await migrateLatest(db);
    return await work(db);
  } finally {
    await db.destroy();
  }
}

function print(value: unknown): void {
  process.stdout.write(JSON.stringify(value) + '\n');
}

const program = new Command()
  .name('admin')
  .description("Let's Chat administration (uses DATABASE_URL)")
  .exitOverride()
  .configureOutput({ writeErr: (s) => process.stderr.write(s) });

program
  .command('migrate')
  .description('apply every pending database migration')
  .action(async () => {
    const db = createDatabase(loadConfig().databaseUrl);
    try {
      print(await migrateLatest(db));
    } finally {
      await db.destroy();
    }
  });

program
  .command('user:add')
  .description('create a verified user')
  .requiredOption('--email <email>', 'e-mail address (unique)')
  .requiredOption('--name <name>', "display name: letters, spaces and - . '")
  .requiredOption('--password <password>', 'password')
  .action(async (opts: { email: string; name: string; password: string }) => {
    const user = await withDatabase(async (db) => {
      try {
        return await createVerifiedUser(new UsersRepository(db), opts);
      } catch (err) {
        if (err instanceof DuplicateEmailError || err instanceof InvalidAccountInputError) throw new CliError(err.message);
        throw err;
      }
    });
    print({ userId: user.id });
  });

program
  .command('seed')
  .description('create verified users {prefix}1@example.test … {prefix}N@example.test named {prefix}1 …')
  .requiredOption('--users <n>', 'how many users', positiveInt)
  .requiredOption('--password <password>', 'the password all of them share')
  .requiredOption('--prefix <prefix>', 'start of every e-mail address and name')
  .action(async (opts: { users: number; password: string; prefix: string }) => {
    const summary = await withDatabase(async (db) => {
      try {
        return await seedUsers(new UsersRepository(db), opts);
      } catch (err) {
        if (err instanceof InvalidAccountInputError) throw new CliError(err.message);
        throw err;
      }
    });
    print(summary);
  });

program.parseAsync(process.argv).then(
  () => process.exit(0),
  (err: unknown) => {
    // commander has already explained its own usage errors on stderr.
    if (err instanceof CommanderError) process.exit(err.exitCode);
    const message = err instanceof CliError ? err.message : String((err as Error)?.stack ?? err);
    process.stderr.write(`error: ${message}\n`);
    process.exit(1);
  },
);
