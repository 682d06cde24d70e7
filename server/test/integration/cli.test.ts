import { execFile } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { api } from '@common/api';
import { createDatabase, type Knex } from '../../src/db/knex';
import type { RunningServer } from '../../src/main';
import { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { startTestServer } from '../support/test-server';

const ROOT = path.resolve(__dirname, '../../..');

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run --silent admin -- …` as an operator would, against the given database. */
function admin(databaseUrl: string, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', 'admin', '--', ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl }, timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

function jsonLine(result: CliResult): Record<string, unknown> {
  const lines = result.stdout.trim().split('\n');
  expect(lines, result.stdout).to.have.length(1);
  return JSON.parse(lines[0]);
}

forEachDatabase('the admin CLI', (db) => {
  let knex: Knex;
  let server: RunningServer | null = null;
  after(async () => {
    await server?.stop();
    await knex?.destroy();
  });

  const login = async (email: string, password: string) => {
    server ??= await startTestServer({ databaseUrl: db.url() });
    return new ApiClient(server.url).post(api.login, { email, password });
  };

  it('migrate applies every migration to a fresh database and then has nothing left to do', async () => {
    const first = await admin(db.url(), 'migrate');
    expect(first.code, first.stderr).to.equal(0);
    const applied = jsonLine(first).applied as string[];
    expect(applied).to.include('20261121000100_create_users.ts').and.include('20261121010100_create_sessions.ts');
    const second = await admin(db.url(), 'migrate');
    expect(second.code, second.stderr).to.equal(0);
    expect(jsonLine(second).applied).to.deep.equal([]);
    knex = createDatabase(db.url());
  });

  it('user:add creates a verified user who can log in, printing {"userId":N}', async () => {
    const result = await admin(db.url(), 'user:add', '--email', 'Operator@Example.test', '--name', '운영자', '--password', 's3cret pass');
    expect(result.code, result.stderr).to.equal(0);
    const { userId } = jsonLine(result);
    expect(userId).to.be.a('number');
    const res = await login('operator@example.test', 's3cret pass');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ name: '운영자', userId });
  });

  it('user:add refuses a duplicate e-mail with exit code 1 and a clear message', async () => {
    const result = await admin(db.url(), 'user:add', '--email', 'operator@example.test', '--name', 'Other', '--password', 'x');
    expect(result.code).to.equal(1);
    expect(result.stdout).to.equal('');
    expect(result.stderr).to.contain('already exists');
  });

  it('user:add refuses an invalid name with exit code 1 and a clear message', async () => {
    const result = await admin(db.url(), 'user:add', '--email', 'new@example.test', '--name', 'B4d', '--password', 'x');
    expect(result.code).to.equal(1);
    expect(result.stderr).to.contain('invalid name');
    expect(await knex('users').where({ email: 'new@example.test' }).first()).to.equal(undefined);
  });

  it('user:add without a required option explains the usage and fails', async () => {
    const result = await admin(db.url(), 'user:add', '--email', 'x@example.test');
    expect(result.code).not.to.equal(0);
    expect(result.stderr).to.contain('--name');
  });

  it('seed creates 1000 verified users X1@example.test … X1000@example.test sharing one password, in one run', async () => {
    const result = await admin(db.url(), 'seed', '--users', '1000', '--password', 'load-pass', '--prefix', 'load');
    expect(result.code, result.stderr).to.equal(0);
    expect(jsonLine(result)).to.deep.equal({ users: 1000, created: 1000, existing: 0, firstEmail: 'load1@example.test', lastEmail: 'load1000@example.test' });
    const [{ n }] = await knex('users').where('email', 'like', 'load%@example.test').count({ n: '*' });
    expect(Number(n)).to.equal(1000);
    const last = await login('load1000@example.test', 'load-pass');
    expect(last.status).to.equal(200);
    expect(last.body.name).to.equal('load1000');
    expect((await login('load1@example.test', 'load-pass')).status).to.equal(200);
  });

  it('seed run again leaves the existing users alone and says so', async () => {
    const result = await admin(db.url(), 'seed', '--users', '1001', '--password', 'load-pass', '--prefix', 'load');
    expect(result.code, result.stderr).to.equal(0);
    expect(jsonLine(result)).to.include({ created: 1, existing: 1000 });
  });

  it('seed refuses a bad count with a usage error', async () => {
    const result = await admin(db.url(), 'seed', '--users', 'many', '--password', 'p', '--prefix', 'x');
    expect(result.code).not.to.equal(0);
    expect(result.stderr).to.contain('--users');
  });
});
