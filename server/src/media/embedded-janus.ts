// The embedded media server (JANUS_URLS unset, `janus` on the PATH): one local Janus with a
// generated configuration in a temporary folder: the HTTP transport alone, on a free loopback
// port, with a random api_secret; the VideoRoom plugin alone (its folder holds only that
// plugin, the transports' folder only the HTTP one); our STUN and TURN for its own candidates.
// It is supervised (restarted after a crash, with a growing pause) and stopped with the server.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../log';
import { janusAnswers } from './janus-client';

/** Where Debian's janus package keeps its plugins and transports. */
const JANUS_LIB = '/usr/lib/x86_64-linux-gnu/janus';
const START_TIMEOUT_MS = 15_000;
const RESTART_PAUSE_MS = [200, 1000, 5000];

export interface EmbeddedJanusOptions {
  /** The janus binary: a name on the PATH or a path. */
  binary: string;
  /** The folder of Debian's plugins and transports (JANUS_LIB by default). */
  libDir?: string;
  stunUrls: string[];
  turnUrls: string[];
  /** Credentials for Janus' own TURN allocations (the TURN REST API's), when TURN is configured. */
  turnCredentials?: { username: string; credential: string } | null;
  /** The UDP ports of its media (RTP_PORT_RANGE style "20000-40000"). */
  rtpPortRange?: string;
  log: Logger;
}

/** Whether `binary` runs here: it prints its version (janus --version exits 1 even then). */
export function janusInstalled(binary: string): boolean {
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 5000 });
  return typeof result.stdout === 'string' && result.stdout.includes('Janus version');
}

async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** host and port of the first stun:/turn: URL ("turn:host:port?transport=udp"). */
function hostPort(url: string): { host: string; port: number; transport: string } | null {
  const m = /^(?:stuns?|turns?):([^:?]+|\[[^\]]+\])(?::([0-9]+))?(?:\?transport=(udp|tcp))?/.exec(url);
  return m ? { host: m[1], port: m[2] ? Number(m[2]) : 3478, transport: m[3] ?? 'udp' } : null;
}

const quoted = (value: string) => JSON.stringify(value);

function natSection(options: EmbeddedJanusOptions): string {
  const lines = ['nice_debug = false', 'full_trickle = true', 'ice_ignore_list = "vmnet"'];
  const stun = options.stunUrls.map(hostPort).find(Boolean);
  if (stun) lines.push(`stun_server = ${quoted(stun.host)}`, `stun_port = ${stun.port}`);
  const turn = options.turnUrls.filter((u) => u.startsWith('turn:')).map(hostPort).find(Boolean);
  if (turn && options.turnCredentials) {
    lines.push(`turn_server = ${quoted(turn.host)}`, `turn_port = ${turn.port}`, `turn_type = ${quoted(turn.transport)}`,
      `turn_user = ${quoted(options.turnCredentials.username)}`, `turn_pwd = ${quoted(options.turnCredentials.credential)}`);
  }
  return lines.join('\n  ');
}

/** Writes the configuration folder; the secret and the port go in it. */
function writeConfig(dir: string, port: number, apiSecret: string, options: EmbeddedJanusOptions): string {
  const lib = options.libDir ?? JANUS_LIB;
  const plugins = path.join(dir, 'plugins');
  const transports = path.join(dir, 'transports');
  const empty = path.join(dir, 'none');
  for (const folder of [plugins, transports, empty]) fs.mkdirSync(folder, { recursive: true });
  fs.symlinkSync(path.join(lib, 'plugins', 'libjanus_videoroom.so'), path.join(plugins, 'libjanus_videoroom.so'));
  fs.symlinkSync(path.join(lib, 'transports', 'libjanus_http.so'), path.join(transports, 'libjanus_http.so'));
  const main = path.join(dir, 'janus.jcfg');
  fs.writeFileSync(main, `general: {
  configs_folder = ${quoted(dir)}
  plugins_folder = ${quoted(plugins)}
  transports_folder = ${quoted(transports)}
  events_folder = ${quoted(empty)}
  loggers_folder = ${quoted(empty)}
  debug_level = 3
  api_secret = ${quoted(apiSecret)}
  admin_secret = ${quoted(crypto.randomBytes(18).toString('base64url'))}
  session_timeout = 60
  server_name = "letschat-embedded"
}
media: {
  rtp_port_range = ${quoted(options.rtpPortRange ?? '20000-40000')}
}
nat: {
  ${natSection(options)}
}
events: { broadcast = false }
plugins: {}
transports: {}
`);
  fs.writeFileSync(path.join(dir, 'janus.transport.http.jcfg'), `general: {
  json = "compact"
  base_path = "/janus"
  http = true
  port = ${port}
  ip = "127.0.0.1"
  https = false
}
admin: { admin_http = false }
cors: {}
`);
  fs.writeFileSync(path.join(dir, 'janus.plugin.videoroom.jcfg'), 'general: {\n}\n');
  return main;
}

export class EmbeddedJanus {
  private child: ChildProcess | null = null;
  private stopped = false;
  private restarts = 0;
  private restartTimer: NodeJS.Timeout | null = null;

  private constructor(
    readonly url: string,
    readonly apiSecret: string,
    private readonly dir: string,
    private readonly configFile: string,
    private readonly options: EmbeddedJanusOptions,
  ) {}

  /** Starts Janus and waits until its API answers. */
  static async start(options: EmbeddedJanusOptions): Promise<EmbeddedJanus> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'letschat-janus-'));
    const port = await freeLoopbackPort();
    const apiSecret = crypto.randomBytes(24).toString('base64url');
    const configFile = writeConfig(dir, port, apiSecret, options);
    const janus = new EmbeddedJanus(`http://127.0.0.1:${port}/janus`, apiSecret, dir, configFile, options);
    janus.spawn();
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await janusAnswers(janus.url, apiSecret))) {
      if (Date.now() > deadline || janus.child === null) {
        await janus.stop();
        throw new Error(`the embedded janus did not answer on ${janus.url} within ${START_TIMEOUT_MS} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    options.log.info({ url: janus.url, pid: janus.pid }, 'embedded janus started');
    return janus;
  }

  /** The running process's id (tests kill it to play a crash). */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(killer);
    }
    this.child = null;
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private spawn(): void {
    const { log } = this.options;
    const child = spawn(this.options.binary, ['-F', this.dir, '-C', this.configFile, '-N'], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    child.stderr?.on('data', (chunk: Buffer) => log.debug({ janus: chunk.toString().trim() }, 'janus'));
    child.once('error', (err) => log.error({ err }, 'the embedded janus could not run'));
    child.once('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      if (this.stopped) return;
      // A crash: every call on it is lost (the group-call service hears so from its session);
      // a new one takes the same port and secret for the calls to come.
      const pause = RESTART_PAUSE_MS[Math.min(this.restarts, RESTART_PAUSE_MS.length - 1)];
      this.restarts += 1;
      log.error({ code, signal, pauseMs: pause }, 'the embedded janus exited; restarting it');
      this.restartTimer = setTimeout(() => {
        this.restartTimer = null;
        if (!this.stopped) this.spawn();
      }, pause);
    });
  }
}
