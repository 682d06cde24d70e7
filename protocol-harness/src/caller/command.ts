// `harness call`: runs one call scenario between headless callers against a running server,
// prints a summary (or one JSON report), writes --report/--junit, and exits by the CI contract
// (shared/outcome.ts): 0 every expectation held, 1 one failed, 2 the test could not run, 64 usage,
// 130/143 interrupted, after writing the report of what ran.
import fs from 'node:fs';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { CallMedia } from '@common/api';
import { toJUnit } from '../shared/junit';
import { checkReachable, describeError, EXIT, EXIT_CODES_HELP, onInterrupt, type StopSignal } from '../shared/outcome';
import { evaluateExpectations, EXPECT_METRICS, parseExpectation, type QualityExpectation } from './expect';
import { CLEAN, describeImpairment, NETWORK_PROFILES, parseImpairment, parseNetworkChange, type NetworkChange, type NetworkPlan, type NetworkSide } from './network';
import { DEFAULT_ARRIVAL_RATE, runPairsCommand } from './pairs-command';
import { commandLine } from '../shared/html/command-line';
import { writeHtml } from '../shared/html/page';
import { callHtml } from './html';
import { callJUnit, formatReport, withCallVerdict, type CallRunReport } from './report';
import { formatGroupReport, GROUP_SCENARIOS, runGroupScenario, type GroupScenarioName } from './group-scenario';
import { runScenario, SCENARIOS, type Credentials, type ScenarioName, type ScenarioReport } from './scenarios';

const isGroupScenario = (name: string): name is GroupScenarioName => (GROUP_SCENARIOS as readonly string[]).includes(name);

function count(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 2 || n > 100) throw new InvalidArgumentError('expected an integer from 2 to 100');
  return n;
}

function credentials(value: string): Credentials {
  // E-mail addresses hold no colon; the password may.
  const i = value.indexOf(':');
  if (i <= 0 || i === value.length - 1) throw new InvalidArgumentError('expected EMAIL:PASSWORD');
  return { email: value.slice(0, i), password: value.slice(i + 1) };
}

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('expected a number of seconds');
  return n;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('a positive integer is required');
  return n;
}

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('a number above 0 is required');
  return n;
}

/** One scenario, or with --pairs a comma list that the pairs take in turn. */
function scenarioList(value: string): Array<ScenarioName | GroupScenarioName> {
  const names = value.split(',').map((n) => n.trim());
  const known: readonly string[] = [...SCENARIOS, ...GROUP_SCENARIOS];
  for (const name of names) {
    if (!known.includes(name)) throw new InvalidArgumentError(`"${name}" is not a scenario: ${known.join(', ')}`);
  }
  return names as Array<ScenarioName | GroupScenarioName>;
}

function media(value: string): CallMedia {
  if (value !== 'audio' && value !== 'video') throw new InvalidArgumentError('expected audio or video');
  return value;
}

/** Parser errors become InvalidArgumentError: commander then exits 64 (cli.ts). */
function parsed<T>(parse: (text: string) => T): (value: string) => T {
  return (value) => {
    try {
      return parse(value);
    } catch (err) {
      throw new InvalidArgumentError((err as Error).message);
    }
  };
}

const expectation = parsed(parseExpectation);
const networkChange = parsed(parseNetworkChange);
const impairment = parsed((text: string) => {
  parseImpairment(text);
  return text.trim();
});

const collect =
  <T>(parse: (value: string) => T) =>
  (value: string, previous: T[]): T[] => [...previous, parse(value)];

const PROFILES_HELP = Object.entries(NETWORK_PROFILES)
  .map(([name, i]) => `  ${name.padEnd(12)} ${describeImpairment(i)}`)
  .join('\n');

const QUALITY_HELP = `
Call quality: each side reads getStats() once a second while its media is connected; the report
(quality.caller / quality.callee) has the series (RTT, jitter, audio loss in that second, inbound
and outbound bitrate, concealed audio, an E-model MOS estimate) and a summary of each
(min, p50, p95, max, mean).

--expect MEASURE OP VALUE (repeatable; operators < <= > >=), judged on the mean over the call of
the worse side; each is a JUnit testcase, a missed one exits 1:
  mos      E-model MOS estimate, 1–4.5        e.g. 'mos>=4'
  loss     audio packet loss, %               e.g. 'loss<2%'
  rtt      round-trip time, ms                e.g. 'rtt<200ms'
  jitter   audio jitter, ms                   e.g. 'jitter<30ms'
  bitrate  inbound bitrate, kbps              e.g. 'bitrate>=20'

--network SETTINGS impairs the media of --network-side (caller, callee or both; default caller)
through a UDP relay inside the harness between that side and the TURN server (no root needed):
the side is given the relay as its TURN server and goes relay only. SETTINGS: loss=N%,
delay=Nms, jitter=Nms (each direction; jitter ±, so datagrams may reorder), a profile, or a
profile with changes ('3g,loss=10%'). Profiles:
${PROFILES_HELP}
--network-change-at TIME:SETTINGS (repeatable) changes the named settings that long after the
call's media connected, e.g. '10s:loss=0%'. The report's quality.network shows the loss asked
and the loss the receivers measured per impaired link.`;

const SCENARIO_HELP = `
Scenarios (caller plays a 440 Hz tone, callee 660 Hz; each must hear the OTHER's. With the camera
on, each sends 320×240 frames at 15 fps whose big black and white blocks code the sender and a
frame counter; each must read back the OTHER's, moving):
  accept                the callee accepts; both connections reach "connected", each side hears
                        the other's tone (non-silent, at its frequency), the caller hangs up and
                        the callee receives the hangup
  reject                the callee rejects; the caller receives "rejected" (not busy)
  hangup-while-ringing  the caller hangs up before an answer; the callee receives the hangup and
                        a late accept reaches nobody
  busy                  needs --third: while the callee rings, the third user's call to the
                        callee is answered "rejected" with reason "busy"; after the accept, the
                        third user's calls to caller and callee are answered busy too
  ring-timeout          nobody answers; both sides receive a hangup with reason "timeout",
                        within ±20 % of the server's ring timeout (see --ring-timeout; measured
                        from the initiate and from the incoming, so delivery delays never count
                        against the server)
  peer-drop             after connecting, the callee's WebSocket drops without DISCONNECT; the
                        caller receives peer-reconnecting, then, after the server's reconnect grace
                        (see --reconnect-grace, ±20 %), a hangup with reason "connection-lost"
  unavailable           the callee has no open connection; the caller's call ends at once with a
                        hangup of reason "unavailable"
  reload-while-ringing  the callee's page reloads while it rings: the call keeps ringing and the
                        reloaded page is rung again, then rejects
  video                 accept as a video call (media "video" on initiate, incoming, accepted):
                        each side hears the other's tone and sees the other's video
  upgrade-to-video      a voice call; the caller turns its camera on and renegotiates (the callee
                        answers, receives media-state camera on, sees the video), then the callee
                        does the same the other way; same connections, tones still heard
  reload-mid-call       after connecting, one side (--reload, the callee by default) drops its
                        socket and connection; the other receives peer-reconnecting; the same
                        session connects again within the grace; both receive resume (one callId,
                        their roles, the media), build new connections and hear the tones again
  network-change        after connecting, the caller restarts ICE with the socket open
                        (createOffer({iceRestart: true})); new ICE credentials both ways, the same
                        connections, still connected, the tones heard again

Group calls (issue 25; users from --users-prefix and --password, as \`harness load\` seeds them,
{prefix}1@example.test …; one room of them all; tones 400, 550, 700 … Hz):
  group                 --participants N join one call (the first starts it); each must hear
                        every other's tone; reports the heard matrix and join → all heard p50/p95
                        (the first sound of the last other heard; and when the meter
                        confirmed each tone, half a second of sound later)
  group-rejoin          group, then the last participant leaves and joins again: everyone must
                        hear everyone again
  group-full            group with N = the server's GROUP_CALL_MAX, then user N+1 joins and must
                        be refused 'full'
  --hold S with group or group-rejoin holds the call S seconds once everyone hears everyone,
  reports each participant's outbound audio kbit/s over it, and checks everyone still hears
  everyone at its end.

--media video makes every call a video call (initiate with media "video", both cameras on).
Every call that rings checks that the caller receives ringing, with the incoming's callId.

Timings in the report: initiate→incoming, initiate→ringing, accept→accepted, accept→connected
(each side), initiate→connected, accept→first audio frame with sound (each side); with video,
accept→first decoded remote frame (each side) and initiate→first frame (the later side); per
scenario the timeout, the grace, reconnect→resume/connected/sound again, offer→answer.
With several --url (nodes of one cluster), the caller signs in to the first, the callee to the
second and the third user to the third (in turn), so every signal crosses nodes; a reloaded page
comes back on the next node.
${EXIT_CODES_HELP}
  (for call: 2 when a user cannot sign in, the server is unreachable, or --relay-only or
  --network finds no TURN server; 1 when any other expectation or an --expect fails)

Many calls at once (--pairs N, instead of --caller/--callee): N pairs in this one process, pair
after pair taking the next two users (three for busy) of --users-prefix/--password (seeded users
{prefix}1@example.test …, admin CLI \`seed\`) or --users-file, started --arrival-rate pairs a
second (default ${DEFAULT_ARRIVAL_RATE}), the --scenario list taken in turn. One combined report: pass/fail per pair,
set-up p50/p95 (initiate → both connected), peak RSS, and the call quality pooled over the pairs
when their reports carry it; JUnit has a testcase per pair. Exit 1 if any pair failed, 2 when the
users or the server are missing (or every failure was a login or TURN one).

Example:
  npm run --silent harness -- call --url http://127.0.0.1:8080 \\
    --caller alice@example.com:secret1 --callee bob@example.com:secret2 --scenario accept --json
  npm run --silent harness -- call --url http://127.0.0.1:8080 --pairs 20 --relay-only --hold 20 \\
    --users-prefix cp --password secret --scenario accept,video --report pairs.json --junit pairs.xml`;

export function registerCallCommand(program: Command): void {
  program
    .command('call')
    .description('call one headless wrtc caller from another through the server and check what both observe')
    .requiredOption('--url <url...>', 'the server, e.g. http://127.0.0.1:8080; several nodes of a cluster: caller, callee and third sign in to them in turn')
    .option('--caller <email:password>', 'the user who places the call (one-to-one scenarios without --pairs)', credentials)
    .option('--callee <email:password>', 'the user who is called (one-to-one scenarios without --pairs)', credentials)
    .addOption(new Option('--scenario <name[,name…]>', `what happens in the call: ${[...SCENARIOS, ...GROUP_SCENARIOS].join(', ')}; with --pairs a comma list of one-to-one scenarios taken in turn`).argParser(scenarioList).default(['accept'], 'accept'))
    .option('--pairs <n>', 'run N call pairs at once in this process, users from --users-prefix/--password or --users-file', positiveInt)
    .option('--users-prefix <prefix>', '--pairs and group scenarios: seeded users {prefix}1@example.test … (admin CLI `seed`)')
    .option('--password <password>', '--pairs and group scenarios: password of the seeded users')
    .option('--users-file <file>', '--pairs: users, one "email,password" a line (instead of --users-prefix)')
    .option('--arrival-rate <pairs/s>', `--pairs: pairs started a second (default ${DEFAULT_ARRIVAL_RATE})`, positive)
    .option('--participants <n>', 'group scenarios: how many join the call', count, 3)
    .option('--third <email:password>', 'a third user, required by the busy scenario', credentials)
    .option('--relay-only', 'iceTransportPolicy "relay": media only through the TURN servers the server hands out', false)
    .option('--hold <seconds>', 'accept: hold the connected call this long before hanging up; group, group-rejoin: hold the call once everyone hears everyone', seconds, 0)
    .option('--ring-timeout <seconds>', "ring-timeout: the server's ring timeout (CALL_RING_TIMEOUT_MS / 1000)", seconds, 60)
    .option('--media <audio|video>', 'what the calls carry: video turns both cameras on (absent: an initiate without media, a voice call)', media)
    .option('--reconnect-grace <seconds>', "peer-drop: the server's reconnect grace (CALL_RECONNECT_GRACE_MS / 1000)", seconds, 30)
    .addOption(new Option('--reload <side>', 'reload-mid-call: which side reloads').choices(['caller', 'callee']).default('callee'))
    .option('--timeout <seconds>', 'longest wait for any one expected event', seconds, 20)
    .option('--origin <origin>', 'Origin header for the WebSocket upgrade, if the server requires one')
    .option('--json', 'print one JSON report instead of the summary', false)
    .option('--report <file>', 'also write the JSON report to this file (written on failure and interruption too; with --pairs the combined report)')
    .option('--junit <file>', 'write JUnit XML: a testcase per expectation, a <failure> for the one that failed (with --pairs: a testcase per pair)')
    .option('--html <file>', 'write one self-contained HTML page (opens offline): verdict, expectations, set-up timings, call-quality charts; with --pairs the combined page (written on failure and interruption too)')
    .option('--expect <expr>', `call-quality criterion, repeatable: ${EXPECT_METRICS.join(', ')}, e.g. 'mos>=4', 'loss<2%' (see below)`, collect(expectation), [] as QualityExpectation[])
    .option('--network <settings>', "impair the media: 'loss=5%,delay=100ms,jitter=30ms' or a profile (3g, lossy-wifi); see below", impairment)
    .addOption(new Option('--network-side <side>', 'whose media --network impairs').choices(['caller', 'callee', 'both']).default('caller'))
    .option('--network-change-at <time:settings>', "change the network mid-call, repeatable, e.g. '10s:loss=0%'", collect(networkChange), [] as NetworkChange[])
    .addHelpText('after', QUALITY_HELP)
    .addHelpText('after', SCENARIO_HELP)
    .action(async (opts: {
      url: string[];
      caller?: Credentials;
      callee?: Credentials;
      scenario: Array<ScenarioName | GroupScenarioName>;
      participants: number;
      pairs?: number;
      usersPrefix?: string;
      password?: string;
      usersFile?: string;
      arrivalRate?: number;
      third?: Credentials;
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
      expect: QualityExpectation[];
      network?: string;
      networkSide: NetworkSide;
      networkChangeAt: NetworkChange[];
      html?: string;
    }) => {
      if (opts.networkChangeAt.length > 0 && !opts.network) {
        process.stderr.write('call: --network-change-at needs --network (use --network loss=0% to start clean)\n');
        process.exitCode = EXIT.usage;
        return;
      }
      const network: NetworkPlan | undefined = opts.network
        ? { asked: opts.network, side: opts.networkSide, impairment: { ...CLEAN, ...parseImpairment(opts.network) }, changes: opts.networkChangeAt }
        : undefined;
      const usage = (message: string) => {
        process.stderr.write(`call: ${message}\n`);
        process.exitCode = EXIT.usage;
      };
      const [first] = opts.scenario;
      if (opts.scenario.length === 1 && isGroupScenario(first)) {
        if (!opts.usersPrefix || opts.password === undefined) {
          process.stderr.write('call: group scenarios need --users-prefix and --password\n');
          process.exitCode = EXIT.usage;
          return;
        }
        process.stderr.write(`call: scenario ${first} with ${opts.participants} participants against ${opts.url[0]}\n`);
        try {
          await checkReachable(opts.url[0]);
        } catch (err) {
          process.stderr.write(`call: ${describeError(err)}\n`);
          process.exitCode = EXIT.infrastructure;
          return;
        }
        const group = await runGroupScenario(first, {
          url: opts.url[0], usersPrefix: opts.usersPrefix, password: opts.password, participants: opts.participants, stepTimeoutMs: opts.timeout * 1000, origin: opts.origin, holdMs: opts.hold * 1000,
        });
        if (opts.report) fs.writeFileSync(opts.report, JSON.stringify(group, null, 2) + '\n');
        await new Promise((resolve) => process.stdout.write((opts.json ? JSON.stringify(group, null, 2) : formatGroupReport(group)) + '\n', resolve));
        process.exitCode = group.ok ? EXIT.passed : EXIT.failed;
        return;
      }
      if (opts.pairs !== undefined) {
        if (opts.caller || opts.callee || opts.third) return usage('--pairs takes its users from --users-prefix/--password or --users-file, not --caller/--callee/--third');
        if (opts.expect.length > 0) return usage('--expect judges one call; with --pairs read the pooled quality of the combined report');
        const scenarios = opts.scenario.filter((name): name is ScenarioName => !isGroupScenario(name));
        if (scenarios.length < opts.scenario.length) return usage('--pairs runs one-to-one scenarios; group scenarios take --participants');
        const { scenario: _scenarios, pairs, network: _asked, ...rest } = opts;
        process.exitCode = await runPairsCommand({ ...rest, pairs, scenarios, network });
        return;
      }
      if (opts.scenario.length > 1) return usage('several scenarios need --pairs');
      if (!opts.caller || !opts.callee) return usage('give --caller and --callee (or --pairs N with --users-prefix and --password)');
      // One scenario, and not a group one (that ran above).
      const scenario = first as ScenarioName;
      const { caller, callee } = opts;
      if (scenario === 'busy' && !opts.third) {
        process.stderr.write('call: the busy scenario needs a third user (--third EMAIL:PASSWORD)\n');
        process.exitCode = EXIT.usage;
        return;
      }
      const startedAt = new Date();
      // On stderr, so stdout keeps only the report: a run that is killed still said what it was.
      process.stderr.write(`call: scenario ${scenario} against ${opts.url.join(', ')}\n`);
      const interruption = onInterrupt((sig) => process.stderr.write(`\ninterrupted (${sig}): reporting what ran\n`));
      const started = performance.now();
      const failed = (reason: string): ScenarioReport => ({
        scenario,
        ok: false,
        reason,
        checks: [],
        timings: {},
        relayOnly: opts.relayOnly,
        lastReason: { caller: null, callee: null },
        reconnects: [],
      });
      const run = async (): Promise<ScenarioReport> => {
        try {
          for (const url of new Set(opts.url)) await checkReachable(url);
        } catch (err) {
          return failed(describeError(err));
        }
        return runScenario(scenario, {
          url: opts.url[0],
          urls: opts.url,
          caller,
          callee,
          third: opts.third,
          relayOnly: opts.relayOnly,
          holdSeconds: opts.hold,
          ringTimeoutSeconds: opts.ringTimeout,
          media: opts.media,
          reconnectGraceSeconds: opts.reconnectGrace,
          reloader: opts.reload,
          stepTimeoutMs: opts.timeout * 1000,
          origin: opts.origin,
          network,
        }).catch((err: unknown) => failed(`could not run: ${describeError(err)}`));
      };
      // A signal ends the wait at once: the scenario's own checks are inside it, so the report of
      // an interrupted call says how far it got in time, not which step it was at.
      const interrupted = new Promise<StopSignal>((resolve) => interruption.signal.addEventListener('abort', () => resolve(interruption.received ?? 'SIGINT'), { once: true }));
      const outcome = await Promise.race([run(), interrupted]);
      let report: CallRunReport;
      if (typeof outcome === 'string') {
        report = withCallVerdict(failed(`interrupted by ${outcome} after ${((performance.now() - started) / 1000).toFixed(1)} s, before the scenario ended`), outcome);
      } else {
        report = withCallVerdict(outcome, null, evaluateExpectations(opts.expect, outcome.quality));
      }
      interruption.dispose();
      const write = (file: string, text: string) => {
        try {
          fs.writeFileSync(file, text);
        } catch (err) {
          process.stderr.write(`call: cannot write ${file}: ${(err as Error).message}\n`);
        }
      };
      if (opts.report) write(opts.report, JSON.stringify(report, null, 2) + '\n');
      if (opts.junit) write(opts.junit, toJUnit(callJUnit(report, startedAt, (performance.now() - started) / 1000)));
      if (opts.html) writeHtml(opts.html, callHtml(report, commandLine()), 'call');
      const output = opts.json ? JSON.stringify(report, null, 2) : formatReport(report);
      await new Promise((resolve) => process.stdout.write(output + '\n', resolve));
      // The entry point exits with this status (wrtc keeps native handles alive after close).
      process.exitCode = report.exitCode;
    });
}
