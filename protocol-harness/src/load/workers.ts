// --workers N: N processes on one machine, each a sender and receiver for whole rooms (or topics)
// of its own, so each accounts exactly for what it sends; their reports merge into one (merge.ts).
// The parent sets nothing up itself: it splits the work, starts every worker's sending together
// once all are set up, passes a stop on, and merges.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Credentials } from './chat-rest';
import type { LoadOptions } from './options';
import { mergeReports } from './merge';
import type { LoadReport } from './report';
import { slotOf } from './scenario';
import type { BucketCounts } from './metrics';
import type { LatencyHistogram } from './latency';
import { SampleAligner, type EncodedSample, type RunSample } from './samples';
import type { Schedule } from './schedule';
import { InfrastructureError, UsageError } from '../shared/outcome';

export interface WorkerPlan {
  /** Clients [first, first + clients) of the whole run. */
  first: number;
  clients: number;
  rooms: number;
  /** Its first room's (topic's) index in the whole run. */
  roomOffset: number;
}

/** Whole rooms per worker, contiguous, as evenly as they go; every client stays in its room. */
export function planWorkers(clients: number, rooms: number, workers: number): WorkerPlan[] {
  if (workers > rooms) throw new UsageError(`--workers ${workers} needs at least ${workers} --rooms (each worker owns whole rooms)`);
  const firstClientOfRoom = (room: number) => {
    let i = 0;
    while (i < clients && slotOf(i, clients, rooms) < room) i++;
    return i;
  };
  return Array.from({ length: workers }, (_x, k) => {
    const r0 = Math.floor((k * rooms) / workers);
    const r1 = Math.floor(((k + 1) * rooms) / workers);
    const first = firstClientOfRoom(r0);
    return { first, clients: firstClientOfRoom(r1) - first, rooms: r1 - r0, roomOffset: r0 };
  });
}

/** A worker's share of the schedule: the whole one scaled by its share of the clients. */
export function scaleSchedule(s: Schedule, share: number): Schedule {
  return s.stages?.length
    ? { ...s, stages: s.stages.map((st) => ({ ...st, target: st.target * share })) }
    : { ...s, ratePerSecond: s.ratePerSecond * share };
}

/** What the parent sends a worker, and what it answers. */
export type ToWorker =
  | { type: 'start'; options: LoadOptions; schedule: Schedule; users?: Credentials[]; topicOffset: number; sample: boolean; buckets: boolean }
  | { type: 'go' }
  | { type: 'stop' };
export type FromWorker =
  | { type: 'ready' }
  | { type: 'sample'; part: EncodedSample; buckets?: BucketCounts }
  | { type: 'report'; report: LoadReport }
  | { type: 'failed'; message: string; usage: boolean };

const WORKER_MAIN = path.join(__dirname, 'worker-main.ts');

export async function runWorkers(
  o: LoadOptions,
  schedule: Schedule,
  users: Credentials[],
  count: number,
  interrupt: AbortSignal,
  onSample?: (sample: RunSample, interval: LatencyHistogram) => void,
  /** --metrics-port: each worker's latency bucket counts so far. */
  onBuckets?: (worker: number, counts: BucketCounts) => void,
): Promise<LoadReport> {
  const plans = planWorkers(o.clients, o.rooms, count);
  const aligner = onSample ? new SampleAligner(plans.length, onSample) : null;
  const children: ChildProcess[] = [];
  const stop = () => children.forEach((c) => c.connected && c.send({ type: 'stop' } satisfies ToWorker));
  interrupt.addEventListener('abort', stop, { once: true });
  try {
    let ready = 0;
    const reports = await Promise.all(
      plans.map(
        (plan, k) =>
          new Promise<LoadReport>((resolve, reject) => {
            const child = fork(WORKER_MAIN, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
            children.push(child);
            let settled = false;
            child.on('message', (m: FromWorker) => {
              if (m.type === 'ready' && ++ready === plans.length) children.forEach((c) => c.send({ type: 'go' } satisfies ToWorker));
              if (m.type === 'sample') {
                aligner?.add(k, m.part);
                if (m.buckets) onBuckets?.(k, m.buckets);
              }
              if (m.type === 'report') {
                settled = true;
                resolve(m.report);
              }
              if (m.type === 'failed') {
                settled = true;
                reject(m.usage ? new UsageError(`worker ${k + 1}: ${m.message}`) : new InfrastructureError(`worker ${k + 1}: ${m.message}`));
              }
            });
            child.once('exit', (code, signal) => {
              if (!settled) reject(new InfrastructureError(`worker ${k + 1} ended without a report (${signal ?? `exit ${code}`})`));
            });
            const options: LoadOptions = { ...o, clients: plan.clients, rooms: plan.rooms, progress: false, threshold: [], out: undefined, html: undefined, metricsPort: undefined, report: undefined, junit: undefined, workers: 1 };
            child.send({
              type: 'start',
              options,
              schedule: scaleSchedule(schedule, plan.clients / o.clients),
              users: o.broker ? undefined : users.slice(plan.first, plan.first + plan.clients),
              topicOffset: plan.roomOffset,
              sample: aligner !== null,
              buckets: onBuckets !== undefined,
            } satisfies ToWorker);
          }),
      ),
    );
    aligner?.flush();
    return mergeReports(reports);
  } finally {
    interrupt.removeEventListener('abort', stop);
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill();
  }
}
