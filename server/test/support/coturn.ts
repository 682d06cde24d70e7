// A real TURN server for tests: Debian's coturn on loopback with the TURN REST API's shared
// secret (use-auth-secret), no TLS/DTLS, no CLI, relaying on 127.0.0.1 only, each instance with
// its own port, pid file and database so it never meets a system coturn service.
//
// coturn missing: a loud skip on a developer's machine, a failure when CI=true.
import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { IN_CI } from './databases';

export const TURNSERVER = process.env.TURNSERVER_BIN ?? '/usr/bin/turnserver';

export interface Coturn {
  port: number;
  /** The turnserver process, for tests that pause it (SIGSTOP) to cut every relayed path at once. */
  pid: number;
  /** TURN URLs for the server's TURN_URLS: UDP and TCP on the listening port. */
  urls: string[];
  /** Everything coturn logged, for failure messages. */
  log(): string;
  stop(): Promise<void>;
}

/** In a mocha `before`: skips the suite (or fails under CI) when coturn is not installed. */
export function requireCoturn(context: Mocha.Context): void {
  if (fs.existsSync(TURNSERVER)) return;
  const message = `coturn is not installed (${TURNSERVER} missing; apt-get install coturn)`;
  if (IN_CI) throw new Error(`${message}: CI must run every test`);
  console.warn(`\n  !!! SKIPPING relay tests: ${message}\n`);
  context.skip();
}

/** A port free for both TCP and UDP on 127.0.0.1 right now. */
async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = net.createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const udpFree = await new Promise<boolean>((resolve) => {
      const socket = dgram.createSocket('udp4');
      socket.once('error', () => resolve(false));
      socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
    });
    if (udpFree) return port;
  }
  throw new Error('no free port for coturn');
}

const READY = /Total General servers/;

/**
 * `relayPorts`: how many relay ports coturn may hand out (default 100). Each relayed
 * RTCPeerConnection holds several allocations (a UDP and a TCP TURN URL, from each local address)
 * for as long as it lives, so 100 carry about ten calls at once; `harness call --pairs 20` needs more.
 */
export async function startCoturn(secret: string, options: { timeoutMs?: number; relayPorts?: number } = {}): Promise<Coturn> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'letschat-coturn-'));
  const port = await freePort();
  // Relay ports from a band derived from the listening port, so parallel instances rarely meet.
  const relayMin = 20_000 + (port % 400) * 100;
  const args = [
    '-n', // no configuration file
    '--listening-ip=127.0.0.1',
    `--listening-port=${port}`,
    '--relay-ip=127.0.0.1',
    `--min-port=${relayMin}`,
    `--max-port=${relayMin + (options.relayPorts ?? 100) - 1}`,
    '--use-auth-secret',
    `--static-auth-secret=${secret}`,
    '--realm=letschat.test',
    '--no-tls',
    '--no-dtls',
    '--no-cli',
    // Both callers and their relays are on 127.0.0.1 in tests; coturn refuses loopback peers
    // unless told otherwise.
    '--allow-loopback-peers',
    '--no-multicast-peers',
    `--pidfile=${path.join(dir, 'turnserver.pid')}`,
    `--userdb=${path.join(dir, 'turndb')}`,
    '--log-file=stdout',
    '--simple-log',
  ];
  const child: ChildProcess = spawn(TURNSERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const timeoutMs = options.timeoutMs ?? 10_000;
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    const check = () => {
      if (!READY.test(output)) return;
      clearTimeout(timer);
      resolve(true);
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(killer);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  if (!ready) {
    await stop();
    throw new Error(`coturn did not start on 127.0.0.1:${port}:\n${output.slice(-2000)}`);
  }
  return {
    port,
    pid: child.pid!,
    urls: [`turn:127.0.0.1:${port}?transport=udp`, `turn:127.0.0.1:${port}?transport=tcp`],
    log: () => output,
    stop,
  };
}
