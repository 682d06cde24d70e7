// `harness call`: runs one call scenario between headless callers against a running server,
// prints a summary (or one JSON report), writes --report/--junit, and exits by the CI contract
// (shared/outcome.ts): 0 every expectation held, 1 one failed, 2 the test could not run, 64 usage,
// 130/143 interrupted, after writing the report of what ran.
import fs from 'node:fs';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { CallMedia } from '@common/api';
import { toJUnit } from '../shared/junit';
import { checkReachable, describeError, EXIT, EXIT_CODES_HELP, onInterrupt, type StopSignal } from '../shared/outcome';
import { callJUnit, formatReport, withCallVerdict, type CallRunReport } from './report';
import { runScenario, SCENARIOS, type Credentials, type ScenarioName, type ScenarioReport } from './scenarios';

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

function media(value: string): CallMedia {
  if (value !== 'audio' && value !== 'video') throw new InvalidArgumentError('expected audio or video');
  return value;
}

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
  (for call: 2 when a user cannot sign in, the server is unreachable, or --relay-only finds no
  TURN server; 1 when any other expectation fails)

Example:
  npm run --silent harness -- call --url http://127.0.0.1:8080 \\
    --caller alice@example.com:secret1 --callee bob@example.com:secret2 --scenario accept --json`;

export function registerCallCommand(program: Command): void {
  program
    .command('call')
    .description('call one headless wrtc caller from another through the server and check what both observe')
    .requiredOption('--url <url...>', 'the server, e.g. http://127.0.0.1:8080; several nodes of a cluster: caller, callee and third sign in to them in turn')
    .requiredOption('--caller <email:password>', 'the user who places the call', credentials)
    .requiredOption('--callee <email:password>', 'the user who is called', credentials)
    .addOption(new Option('--scenario <name>', 'what happens in the call').choices(SCENARIOS).default('accept'))
    .option('--third <email:password>', 'a third user, required by the busy scenario', credentials)
    .option('--relay-only', 'iceTransportPolicy "relay": media only through the TURN servers the server hands out', false)
    .option('--hold <seconds>', 'accept: hold the connected call this long before hanging up', seconds, 0)
    .option('--ring-timeout <seconds>', "ring-timeout: the server's ring timeout (CALL_RING_TIMEOUT_MS / 1000)", seconds, 60)
    .option('--media <audio|video>', 'what the calls carry: video turns both cameras on (absent: an initiate without media, a voice call)', media)
    .option('--reconnect-grace <seconds>', "peer-drop: the server's reconnect grace (CALL_RECONNECT_GRACE_MS / 1000)", seconds, 30)
    .addOption(new Option('--reload <side>', 'reload-mid-call: which side reloads').choices(['caller', 'callee']).default('callee'))
    .option('--timeout <seconds>', 'longest wait for any one expected event', seconds, 20)
    .option('--origin <origin>', 'Origin header for the WebSocket upgrade, if the server requires one')
    .option('--json', 'print one JSON report instead of the summary', false)
    .option('--report <file>', 'also write the JSON report to this file (written on failure and interruption too)')
    .option('--junit <file>', 'write JUnit XML: a testcase per expectation, a <failure> for the one that failed')
    .addHelpText('after', SCENARIO_HELP)
    .action(async (opts: {
      url: string[];
      caller: Credentials;
      callee: Credentials;
      scenario: ScenarioName;
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
    }) => {
      if (opts.scenario === 'busy' && !opts.third) {
        process.stderr.write('call: the busy scenario needs a third user (--third EMAIL:PASSWORD)\n');
        process.exitCode = EXIT.usage;
        return;
      }
      const startedAt = new Date();
      // On stderr, so stdout keeps only the report: a run that is killed still said what it was.
      process.stderr.write(`call: scenario ${opts.scenario} against ${opts.url.join(', ')}\n`);
      const interruption = onInterrupt((sig) => process.stderr.write(`\ninterrupted (${sig}): reporting what ran\n`));
      const started = performance.now();
      const failed = (reason: string): ScenarioReport => ({
        scenario: opts.scenario,
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
        return runScenario(opts.scenario, {
          url: opts.url[0],
          urls: opts.url,
          caller: opts.caller,
          callee: opts.callee,
          third: opts.third,
          relayOnly: opts.relayOnly,
          holdSeconds: opts.hold,
          ringTimeoutSeconds: opts.ringTimeout,
          media: opts.media,
          reconnectGraceSeconds: opts.reconnectGrace,
          reloader: opts.reload,
          stepTimeoutMs: opts.timeout * 1000,
          origin: opts.origin,
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
        report = withCallVerdict(outcome, null);
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
      const output = opts.json ? JSON.stringify(report, null, 2) : formatReport(report);
      await new Promise((resolve) => process.stdout.write(output + '\n', resolve));
      // The entry point exits with this status (wrtc keeps native handles alive after close).
      process.exitCode = report.exitCode;
    });
}
