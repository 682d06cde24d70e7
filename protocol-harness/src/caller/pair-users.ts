// The users of `harness call --pairs N`, taken as `harness load` takes them: seeded users
// {prefix}1@example.test … with one --password, or a --users-file. Pair after pair takes the next
// two (three for busy) in order. Running out is said before any call starts, with the count that
// exists ("only 30 users with prefix cp; 40 asked"): exit 2, not 20 pairs failing one by one.
import fs from 'node:fs';
import { parseUsersFile } from '../load/command';
import { HttpStatusError, login } from '../shared/rest';
import { InfrastructureError, UsageError } from '../shared/outcome';
import type { Credentials, ScenarioName } from './scenarios';

/** The seeded accounts' domain (admin CLI `seed`), as harness load names them. */
const SEED_DOMAIN = 'example.test';

export interface PairUsersOptions {
  usersPrefix?: string;
  password?: string;
  usersFile?: string;
}

export interface PairUsers {
  caller: Credentials;
  callee: Credentials;
  third?: Credentials;
}

/** How many users a scenario takes: busy needs a third. */
export const usersPerPair = (scenario: ScenarioName) => (scenario === 'busy' ? 3 : 2);

/** Scenario of pair i (0-based): round-robin over the --scenario list. */
export const scenarioOf = (scenarios: readonly ScenarioName[], i: number) => scenarios[i % scenarios.length];

export function seededEmail(prefix: string, n: number): string {
  return `${prefix}${n}@${SEED_DOMAIN}`.toLowerCase();
}

/** The credentials of `count` users, in order; a users file shorter than that is an infrastructure error. */
export function listUsers(o: PairUsersOptions, count: number): Credentials[] {
  if (o.usersFile) {
    let text: string;
    try {
      text = fs.readFileSync(o.usersFile, 'utf8');
    } catch (err) {
      throw new UsageError(`--users-file: ${(err as Error).message}`);
    }
    let users: Credentials[];
    try {
      users = parseUsersFile(text);
    } catch (err) {
      throw new UsageError(`--users-file: ${(err as Error).message}`);
    }
    if (users.length < count) throw new InfrastructureError(`only ${users.length} users in ${o.usersFile}; ${count} asked`);
    return users.slice(0, count);
  }
  if (!o.usersPrefix || o.password === undefined) throw new UsageError('--pairs needs --users-prefix and --password, or --users-file');
  return Array.from({ length: count }, (_x, i) => ({ email: seededEmail(o.usersPrefix!, i + 1), password: o.password! }));
}

/** Splits the users over the pairs: each pair takes the next two, or three for busy. */
export function assignUsers(users: readonly Credentials[], scenarios: readonly ScenarioName[], pairs: number): PairUsers[] {
  const out: PairUsers[] = [];
  let next = 0;
  for (let i = 0; i < pairs; i++) {
    const scenario = scenarioOf(scenarios, i);
    const [caller, callee] = [users[next], users[next + 1]];
    const third = scenario === 'busy' ? users[next + 2] : undefined;
    next += usersPerPair(scenario);
    out.push(third ? { caller, callee, third } : { caller, callee });
  }
  return out;
}

export function usersNeeded(scenarios: readonly ScenarioName[], pairs: number): number {
  let n = 0;
  for (let i = 0; i < pairs; i++) n += usersPerPair(scenarioOf(scenarios, i));
  return n;
}

/** Whether this seeded user can sign in: a 401 means no (missing, or another password). */
async function canSignIn(url: string, user: Credentials): Promise<boolean> {
  try {
    await login(url, user.email, user.password);
    return true;
  } catch (err) {
    if (err instanceof HttpStatusError && err.status === 401) return false;
    throw new InfrastructureError(`signing in ${user.email}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * Seeded users run from 1 up without a gap, so signing in the last one asked proves they all
 * exist; when it is refused, a binary search finds how many do, in a handful of logins instead of
 * one per user (each refused login counts against the address's login limit).
 */
export async function checkSeededUsers(url: string, users: readonly Credentials[], prefix: string): Promise<void> {
  if (users.length === 0 || (await canSignIn(url, users[users.length - 1]))) return;
  if (!(await canSignIn(url, users[0]))) {
    throw new InfrastructureError(`login refused for ${users[0].email}: a wrong --password, or no users seeded with prefix ${prefix}?`);
  }
  let have = 1;
  let missing = users.length;
  while (missing - have > 1) {
    const mid = Math.floor((have + missing) / 2);
    if (await canSignIn(url, users[mid - 1])) have = mid;
    else missing = mid;
  }
  throw new InfrastructureError(`only ${have} users with prefix ${prefix}; ${users.length} asked`);
}
