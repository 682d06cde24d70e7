// One process of `harness load --workers N` (workers.ts): sets up its share of the sessions, says
// ready, sends on "go", answers with its report. Stops (and still reports) when told to.
import { runScenarioLoad } from './command';
import type { LatencyHistogram } from './latency';
import { LatencyBuckets } from './metrics';
import type { RunSample } from './samples';
import type { FromWorker, ToWorker } from './workers';
import { describeError, UsageError } from '../shared/outcome';

const reply = (m: FromWorker) => new Promise<void>((resolve) => (process.send ? process.send(m, () => resolve()) : resolve()));
const controller = new AbortController();
let go: () => void = () => {};
const started = new Promise<void>((resolve) => (go = resolve));

// The terminal's Ctrl-C (or a SIGTERM to the process group) reaches every worker: the parent
// decides, and says "stop", so that each still reports what it ran.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
process.on('disconnect', () => controller.abort());

process.on('message', (m: ToWorker) => {
  if (m.type === 'go') go();
  if (m.type === 'stop') controller.abort();
  if (m.type !== 'start') return;
  const beforeDrive = () => {
    void reply({ type: 'ready' });
    return started;
  };
  const buckets = m.buckets ? new LatencyBuckets() : null;
  const onSample = m.sample
    ? (sample: RunSample, interval: LatencyHistogram) => void reply({ type: 'sample', part: { sample, hdr: interval.fullSummary().hdr }, buckets: buckets?.snapshot() })
    : undefined;
  runScenarioLoad(m.options, m.schedule, controller.signal, onSample, buckets ? (us) => buckets.record(us) : undefined, { users: m.users, topicOffset: m.topicOffset, beforeDrive }).then(
    // Sessions and timers may linger: exit once the answer is handed over.
    (report) => reply({ type: 'report', report }).then(() => process.exit(0)),
    (err: unknown) => reply({ type: 'failed', message: describeError(err), usage: err instanceof UsageError }).then(() => process.exit(1)),
  );
});
