// `harness call`: runs one call scenario between headless callers against a running server,
// prints a summary (or one JSON report) and exits 0 only when every expectation held.
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { CallMedia } from '@common/api';
import { formatReport } from './report';
import { runScenario, SCENARIOS, type Credentials, type ScenarioName } from './scenarios';

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
Exit status: 0 when every expectation held, 1 otherwise (the reason is printed).

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
    }) => {
      const report = await runScenario(opts.scenario, {
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
      });
      const output = opts.json ? JSON.stringify(report, null, 2) : formatReport(report);
      await new Promise((resolve) => process.stdout.write(output + '\n', resolve));
      // The entry point exits with this status (wrtc keeps native handles alive after close).
      process.exitCode = report.ok ? 0 : 1;
    });
}
