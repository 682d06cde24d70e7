// The server as an operator runs it: through `npm start`, stopped by a signal to whichever
// process gets it, refusing a port another server holds, and saying where it runs.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createFeatureRouter } from '../../src/stomp/router';
import { startStandalone } from '../support/standalone-stomp';
import { openRawStomp } from '../support/stomp-client';

const ROOT = path.resolve(__dirname, '../../..');

interface Started {
  npm: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

/** `npm start` on a free port and a fresh SQLite file, resolved once it says where it runs. */
function npmStart(env: Record<string, string> = {}): Promise<Started> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'letschat-life-'));
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite3')}`, MAIL_DIR: path.join(dir, 'mail'), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      const m = /Let's Chat on http:\/\/localhost:([0-9]+) — SQLite .*, mail in .*\//.exec(output);
      if (m) resolve({ npm, port: Number(m[1]), output: () => output, exited });
    };
    npm.stdout.on('data', onData);
    npm.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`npm start exited with ${code}: ${output}`)));
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('running the server', function () {
  this.timeout(60_000);

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops when ${signal} reaches the npm start process, not only the server`, async () => {
      const { npm, port, exited } = await npmStart();
      expect(await accepts(port)).to.equal(true);
      npm.kill(signal);
      expect(await exited).to.equal(0);
      expect(await accepts(port)).to.equal(false);
    });
  }

  it('fails at once with a clear message and exit code 1 when its port is taken', async () => {
    const first = await npmStart();
    try {
      const second = spawn('npm', ['start'], {
        cwd: ROOT,
        env: { ...process.env, PORT: String(first.port), DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      second.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => second.on('exit', resolve));
      expect(code).to.equal(1);
      expect(stderr).to.include(`Let's Chat could not start: cannot listen on 127.0.0.1:${first.port}`);
    } finally {
      first.npm.kill('SIGTERM');
      await first.exited;
    }
  });

  it('tells connected STOMP clients with an ERROR to reconnect when it stops', async () => {
    const server = await startStandalone({
      router: createFeatureRouter([]),
      log: pino({ level: 'silent' }),
      authenticator: { authenticate: (token) => Promise.resolve(token ? { userId: 1, sessionId: token } : null) },
    });
    const raw = await openRawStomp(server, { cookie: 'sid=one' });
    raw.send('CONNECT\naccept-version:1.2\n\n\0');
    expect((await raw.nextFrame()).command).to.equal('CONNECTED');
    const stopping = server.stop();
    const error = await raw.nextFrame();
    expect([error.command, error.headers.get('message')]).to.deep.equal(['ERROR', 'server shutting down; reconnect']);
    expect((await raw.closed).code).to.equal(1001);
    await stopping;
  });
});
