// `harness call --pairs N`: checks the users and the server, runs the pairs (pairs.ts), and
// writes the combined report (--json, --report, --junit) by the CI contract: 0 all passed, 1 a
// pair failed, 2 the pairs could not run (server unreachable, users missing, every failure a
// login or TURN one), 64 usage, 130/143 interrupted, after writing the report of what ran.
import fs from 'node:fs';
import type { CallMedia } from '@common/api';
import { commandLine } from '../shared/html/command-line';
import { writeHtml } from '../shared/html/page';
import { toJUnit } from '../shared/junit';
import { checkReachable, describeError, InfrastructureError, onInterrupt, UsageError, type StopSignal } from '../shared/outcome';
import { assignUsers, checkSeededUsers, listUsers, usersNeeded, type PairUsersOptions } from './pair-users';
import { runPairs, type PairsOutcome } from './pairs';
import { formatPairsReport, pairsJUnit, pairsReport, type PairsReport, type PairsRun } from './pairs-report';
import type { NetworkPlan } from './network';
import { pairsHtml } from './pairs-html';
import type { ScenarioName } from './scenarios';

export interface PairsCommandOptions extends PairUsersOptions {
  url: string[];
  pairs: number;
  scenarios: ScenarioName[];
  arrivalRate?: number;
  relayOnly: boolean;
  hold: number;
  ringTimeout: number;
  media?: CallMedia;
  reconnectGrace: number;
  reload: 'caller' | 'callee';
  timeout: number;
  origin?: string;
  json: boolean;
  report?: string;
  junit?: string;
  html?: string;
  /** The impaired network of every pair (--network), as one call takes it. */
  network?: NetworkPlan;
}

/** Pairs started a second when --arrival-rate is not given: 40 logins and ICE gatherings at once would measure the harness, not the server. */
export const DEFAULT_ARRIVAL_RATE = 5;

class Interrupted extends Error {}

/** The work, or an Interrupted as soon as the signal aborts (the setup's logins are not waited for). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Interrupted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Interrupted());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export async function runPairsCommand(o: PairsCommandOptions): Promise<number> {
  const startedAt = new Date();
  const started = performance.now();
  const arrivalRate = o.arrivalRate ?? DEFAULT_ARRIVAL_RATE;
  const asked: PairsReport['asked'] = { pairs: o.pairs, scenarios: o.scenarios, arrivalRate, relayOnly: o.relayOnly, holdSeconds: o.hold };
  process.stderr.write(`call: ${o.pairs} pairs (${o.scenarios.join(', ')}), ${arrivalRate} a second, against ${o.url.join(', ')}\n`);
  const interruption = onInterrupt((sig) => process.stderr.write(`\ninterrupted (${sig}): reporting what ran\n`));
  let outcome: PairsOutcome | null = null;
  let error: PairsRun['error'] = null;
  try {
    const users = listUsers(o, usersNeeded(o.scenarios, o.pairs));
    await untilAborted(
      (async () => {
        for (const url of new Set(o.url)) await checkReachable(url);
        if (!o.usersFile && o.usersPrefix) await checkSeededUsers(o.url[0], users, o.usersPrefix);
      })(),
      interruption.signal,
    );
    outcome = await runPairs({
      scenarios: o.scenarios,
      users: assignUsers(users, o.scenarios, o.pairs),
      arrivalRate,
      interrupt: interruption.signal,
      scenario: {
        url: o.url[0],
        urls: o.url,
        relayOnly: o.relayOnly,
        holdSeconds: o.hold,
        ringTimeoutSeconds: o.ringTimeout,
        media: o.media,
        reconnectGraceSeconds: o.reconnectGrace,
        reloader: o.reload,
        stepTimeoutMs: o.timeout * 1000,
        origin: o.origin,
        network: o.network,
      },
      onPairStart: (p) => process.stderr.write(`pair ${p.pair} (${p.scenario}): started\n`),
      onPairEnd: (p) => process.stderr.write(`pair ${p.pair} (${p.scenario}): ${p.ok ? 'PASS' : `FAIL: ${p.reason}`}\n`),
    });
  } catch (err) {
    if (err instanceof UsageError) error = { message: err.message, kind: 'usage' };
    else if (!(err instanceof Interrupted)) error = { message: err instanceof InfrastructureError ? err.message : describeError(err), kind: 'infrastructure' };
  }
  const signal: StopSignal | null = interruption.received;
  interruption.dispose();
  const durationSeconds = (performance.now() - started) / 1000;
  const none = { peakRssMB: Math.round((process.resourceUsage().maxRSS * 1024) / (1024 * 1024)), baselineRssMB: 0, perPairMB: 0, series: [] };
  const report = pairsReport({
    asked,
    pairs: outcome?.pairs ?? [],
    qualities: outcome?.qualities ?? [],
    memory: outcome?.memory ?? none,
    generator: outcome?.generator ?? null,
    durationSeconds: outcome?.durationSeconds ?? durationSeconds,
    error,
    signal,
  });
  if (error?.kind === 'usage') {
    process.stderr.write(`call: ${error.message}\n`);
    return report.exitCode;
  }
  const write = (file: string, text: string) => {
    try {
      fs.writeFileSync(file, text);
    } catch (err) {
      process.stderr.write(`call: cannot write ${file}: ${(err as Error).message}\n`);
    }
  };
  if (o.report) write(o.report, JSON.stringify(report, null, 2) + '\n');
  if (o.junit) write(o.junit, toJUnit(pairsJUnit(report, startedAt)));
  if (o.html) writeHtml(o.html, pairsHtml(report, commandLine()), 'call');
  const output = o.json ? JSON.stringify(report, null, 2) : formatPairsReport(report);
  await new Promise((resolve) => process.stdout.write(output + '\n', resolve));
  return report.exitCode;
}
