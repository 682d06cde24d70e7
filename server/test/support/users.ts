// Users for integration tests: created through the accounts code (verified, hashed like real
// ones) and logged in through the real REST login, so clients hold a real session cookie.
import crypto from 'node:crypto';
import { api } from '@common/api';
import type { RunningServer } from '../../src/main';
import { createVerifiedUser } from '../../src/features/accounts/create-user';
import { UsersRepository } from '../../src/features/accounts/users-repository';
import { ApiClient } from './api-client';

export interface TestUser {
  userId: number;
  email: string;
  name: string;
  password: string;
}

export interface TestUserOptions {
  email?: string;
  name?: string;
  password?: string;
}

/** Inserts a verified user; the e-mail is unique unless given. */
export async function createUser(server: RunningServer, opts: TestUserOptions = {}): Promise<TestUser> {
  const email = opts.email ?? `user-${crypto.randomBytes(6).toString('hex')}@example.test`;
  const name = opts.name ?? 'Test User';
  const password = opts.password ?? 'correct horse battery staple';
  const user = await createVerifiedUser(new UsersRepository(server.db), { email, name, password });
  return { userId: user.id, email: user.email, name: user.name, password };
}

/** An ApiClient holding the session cookie of a fresh login. */
export async function loginClient(server: RunningServer, user: { email: string; password: string }): Promise<ApiClient> {
  const client = new ApiClient(server.url);
  const res = await client.post(api.login, { email: user.email, password: user.password });
  if (res.status !== 200) throw new Error(`login of ${user.email} failed: ${res.status} ${res.text}`);
  return client;
}

export async function newLoggedInUser(server: RunningServer, opts: TestUserOptions = {}): Promise<{ user: TestUser; client: ApiClient }> {
  const user = await createUser(server, opts);
  return { user, client: await loginClient(server, user) };
}
