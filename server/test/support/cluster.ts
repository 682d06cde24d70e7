// A real cluster for tests: its own redis-server on a free port (never the shared one), a fresh
// MariaDB database, and node processes of the real server started as child processes, each on
// its own port, sharing both.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { createDatabase, type Knex } from '../../src/db/knex';
import type { RunningServer } from '../../src/main';
import type { ApiClient } from './api-client';
import { IN_CI, isMysqlReachable, MYSQL_ADMIN_URL } from './databases';
import { connectStomp, type TestStomp } from './stomp-client';
import { createUser, loginClient, type TestUser } from './users';
import { waitFor } from './wait';

const ROOT = path.resolve(__dirname, '../../..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A private redis-server, without persistence; stop() and start() again simulate a restart. */
export class TestRedis {
  private process: ChildProcess | null = null;
  private constructor(readonly port: number) {}

  static async start(): Promise<TestRedis> {
    const redis = new TestRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const orphanGuard = () => child.kill('SIGKILL');
    process.once('exit', orphanGuard);
    child.once('exit', () => process.off('exit', orphanGuard));
    this.process = child;
    await waitFor(() => portAnswers(this.port), { what: `redis-server on ${this.port}`, timeoutMs: 15_000 });
  }

  /**
   * SIGSTOP: Redis stops answering but keeps its connections open, as a partition without a
   * reset looks to the nodes; thaw() (SIGCONT) lets it answer again, with everything it held.
   */
  freeze(): void {
    this.process?.kill('SIGSTOP');
  }

  thaw(): void {
    this.process?.kill('SIGCONT');
  }

  /** kill -9: no goodbye to the clients. */
  async stop(): Promise<void> {
    const child = this.process;
    this.process = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
}

/** A fresh MariaDB database; skipped loudly (failed under CI) without MariaDB. */
export async function createMysqlDatabase(context: Mocha.Context): Promise<{ url: string; drop(): Promise<void> }> {
  if (!(await isMysqlReachable())) {
    const message = `MariaDB/MySQL is not reachable at ${MYSQL_ADMIN_URL}`;
    if (IN_CI) throw new Error(`${message}: CI must run every test`);
    console.warn(`\n  !!! SKIPPING the cluster tests: ${message}\n`);
    context.skip();
  }
  const name = `letschat_c_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = () => knexFactory({ client: 'mysql2', connection: { uri: MYSQL_ADMIN_URL } as never, pool: { min: 0, max: 1 } });
  const db = admin();
  try {
    await db.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await db.destroy();
  }
  return {
    url: `${MYSQL_ADMIN_URL}/${name}`,
    async drop() {
      const d = admin();
      try {
        await d.raw(`DROP DATABASE IF EXISTS \`${name}\``);
      } finally {
        await d.destroy();
      }
    },
  };
}

/** One node of the cluster: the real server in its own process. */
/** How long a node may take to answer on its port; within the harness tier's 180 s hook timeout twice over. */
const NODE_START_WAIT_MS = 80_000;

export class NodeProcess {
  readonly output: string[] = [];
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {
    const keep = (chunk: Buffer) => {
      this.output.push(chunk.toString());
      if (this.output.length > 200) this.output.shift();
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  /** A node on a free port (or env.PORT); with WORKERS in env, the supervisor of that many. */
  static async start(env: Record<string, string>): Promise<NodeProcess> {
    const port = env.PORT ? Number(env.PORT) : await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PUBLIC_URL: 'http://localhost:8080',
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
        STATIC_DIR: 'dist',
        MAIL_DIR: path.join(os.tmpdir(), 'letschat-cluster-mail'),
        ...env,
        PORT: String(port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // A test that times out may leave before its after hook stops the node: never outlive the tests.
    const orphanGuard = () => child.kill('SIGKILL');
    process.once('exit', orphanGuard);
    child.once('exit', () => process.off('exit', orphanGuard));
    const node = new NodeProcess(child, port);
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`node on ${port} exited with ${code}: ${node.output.join('')}`))),
    );
    exited.catch(() => {});
    // tsx compiles the server as it starts: at a load average of 35 on two cores that passed 30 s.
    await Promise.race([waitFor(() => portAnswers(port), { what: `the node on ${port}`, timeoutMs: NODE_START_WAIT_MS }), exited]);
    return node;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves with the exit code once the process has exited (null after a signal). */
  exited(): Promise<number | null> {
    if (!this.alive) return Promise.resolve(this.child.exitCode);
    return new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** SIGTERM (a graceful stop) or SIGKILL (a crash); resolves when the process is gone. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!this.alive) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill(signal);
    await exited;
  }
}

/** A Knex on the cluster's database, for creating users the way the other tests do. */
export function databaseOf(url: string): Knex {
  return createDatabase(url);
}

/** Debian's haproxy with the given configuration file, its addresses from the environment. */
export class HaproxyProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly output: string[],
  ) {}

  static available(): boolean {
    try {
      execFileSync('haproxy', ['-v'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  }

  static async start(configFile: string, env: Record<string, string>): Promise<HaproxyProcess> {
    const port = await freePort();
    const output: string[] = [];
    const child = spawn('haproxy', ['-db', '-f', path.join(ROOT, configFile)], {
      env: { ...process.env, LETSCHAT_BIND: `127.0.0.1:${port}`, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (c: Buffer) => output.push(c.toString()));
    child.stderr?.on('data', (c: Buffer) => output.push(c.toString()));
    await waitFor(() => portAnswers(port), { what: `haproxy on ${port}`, timeoutMs: 15_000 });
    return new HaproxyProcess(child, port, output);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    await exited;
  }
}

/**
 * A TCP proxy in front of a real server (MariaDB): cut() refuses new connections and drops the
 * open ones, as an outage does; restore() serves again on the same port.
 */
export class TcpProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(await freePort(), target);
    await proxy.restore();
    return proxy;
  }

  restore(): Promise<void> {
    return new Promise((resolve, reject) => {
      const server = net.createServer((client) => {
        const upstream = net.connect(this.target.port, this.target.host);
        for (const s of [client, upstream]) {
          this.sockets.add(s);
          s.on('close', () => this.sockets.delete(s));
          s.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
      this.server = server;
    });
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise((r) => server.close(r));
  }
}

/** A user created in the cluster's database and signed in on one node. */
export interface ClusterPerson {
  user: TestUser;
  client: ApiClient;
}

export interface ClusterFixture {
  /** The node processes, started before the suite (the first alone, so it alone migrates). */
  readonly nodes: NodeProcess[];
  readonly redis: TestRedis;
  readonly db: Knex;
  /** DATABASE_URL and REDIS_URL (and the options' env): for starting more nodes in a test. */
  readonly env: Record<string, string>;
  /** A user signed in on the node (any node accepts the cookie: sessions are in the database). */
  person(node: { url: string }, name: string): Promise<ClusterPerson>;
  /** A STOMP connection to the node as the person, disconnected after the test. */
  connect(node: { url: string }, who: ClusterPerson | ApiClient): Promise<TestStomp>;
}

export interface ClusterOptions {
  /** Node processes to start before the suite (0: the tests start their own). */
  nodes: number;
  /** Extra environment for every node. */
  env?: Record<string, string>;
  /** How the nodes are stopped after the suite (SIGKILL where a test kills them anyway). */
  stopSignal?: NodeJS.Signals;
}

/**
 * The set-up every cluster suite shares, as mocha hooks: a fresh MariaDB database (skipped
 * loudly without MariaDB), a private redis-server, `nodes` node processes on both, a Knex on the
 * database; STOMP connections made through `connect` are closed after each test, everything
 * else after the suite.
 */
export function useCluster(options: ClusterOptions): ClusterFixture {
  let database: { url: string; drop(): Promise<void> } | null = null;
  let redis: TestRedis | null = null;
  let db: Knex | null = null;
  let env: Record<string, string> = {};
  const nodes: NodeProcess[] = [];
  const open: TestStomp[] = [];
  const ready = <T>(value: T | null, what: string): T => {
    if (value === null) throw new Error(`the cluster fixture has no ${what} yet (used outside a test?)`);
    return value;
  };

  before(async function () {
    database = await createMysqlDatabase(this);
    redis = await TestRedis.start();
    env = { DATABASE_URL: database.url, REDIS_URL: redis.url, ...options.env };
    // The first node migrates the database; the others find it migrated.
    if (options.nodes > 0) nodes.push(await NodeProcess.start(env));
    nodes.push(...(await Promise.all(Array.from({ length: Math.max(0, options.nodes - 1) }, () => NodeProcess.start(env)))));
    db = databaseOf(database.url);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.disconnect().catch(() => {})));
  });
  after(async () => {
    await Promise.all(open.splice(0).map((s) => s.disconnect().catch(() => {})));
    await Promise.all(nodes.map((n) => n.stop(options.stopSignal)));
    await db?.destroy();
    await redis?.stop();
    await database?.drop();
  });

  return {
    nodes,
    get redis() {
      return ready(redis, 'redis-server');
    },
    get db() {
      return ready(db, 'database');
    },
    get env() {
      return env;
    },
    async person(node, name) {
      const user = await createUser({ db: ready(db, 'database') } as RunningServer, { name });
      return { user, client: await loginClient({ url: node.url } as RunningServer, user) };
    },
    async connect(node, who) {
      const client = 'client' in who ? who.client : who;
      const stomp = await connectStomp(node, client.cookieHeader());
      open.push(stomp);
      return stomp;
    },
  };
}
