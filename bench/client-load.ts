// Benchmark part: the client's load. For our build (dist/) and for the build of a baseline
// commit made in the same run (default 0494dea, before issue [4/7]), served by our server from
// a temporary SQLite database: the JavaScript each route downloads before it settles (bytes as
// gzip -9 and brotli 11), first contentful paint of /login and /chat-list in Chromium with a 4×
// CPU slowdown and a 1.6 Mbps / 150 ms network (median of several cold loads), and how often
// one load of /chat-list and of a room asks for the chat list and history page 0.
//   node --import tsx bench/client-load.ts [--baseline 0494dea] [--runs 5] [--skip-baseline]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { api } from '@common/api';
import { launchChromium } from '../client/test/e2e/support/browser';
import { emitResult, upperGoal, type Figure } from './lib/result';
import { ROOT, startServer, type ServerProcess } from './lib/server-process';

const { values: args } = parseArgs({
  options: {
    baseline: { type: 'string', default: '0494dea' },
    runs: { type: 'string', default: '5' },
    'skip-baseline': { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
const KIB = 1024;
const LOGIN_GOAL_KIB = 110;
const ROUTE_GOAL_KIB = 150;
/** JS per route measured by the previous session, before the features were installed per screen (main at 09bbae6). */
const PREVIOUS_SESSION_KIB = { login: 125.5, room: 150.8 };
/** The baseline figure the issue quotes, used when no baseline build can be made in this run. */
const QUOTED_BASELINE_FCP_S = 5.3;
const NETWORK = { offline: false, latency: 150, downloadThroughput: (1.6 * 1_000_000) / 8, uploadThroughput: (0.75 * 1_000_000) / 8 };
const PASSWORD = 'bench-client-pass';

const log = (line: string) => process.stderr.write(`[client-load] ${line}\n`);

/** Builds `commit`'s client into a temporary folder with that commit's own webpack config. */
function buildBaseline(commit: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'letschat-baseline-'));
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C ${dir}`], { cwd: ROOT });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  execFileSync('npx', ['webpack', '--mode', 'production', '--disable-interpret'], {
    cwd: dir,
    env: { ...process.env, NODE_OPTIONS: '--import tsx' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return dir;
}

interface Build {
  name: string;
  dist: string;
  server: ServerProcess;
  userEmail: string;
  userId: number;
  chatRoomId: number;
}

async function prepare(name: string, dist: string, dbDir: string): Promise<Build> {
  const started = await startServer({ env: { STATIC_DIR: dist, DATABASE_URL: `sqlite:${path.join(dbDir, `${name}.sqlite3`)}` } });
  // The server's PUBLIC_URL (localhost): the origin its CSRF and WebSocket checks expect.
  const server = { ...started, url: `http://localhost:${started.port}` };
  const email = `bench-${name}@example.test`;
  execFileSync(process.execPath, ['--import', 'tsx', 'server/src/cli/admin.ts', 'user:add', '--email', email, '--name', '측정', '--password', PASSWORD], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: `sqlite:${path.join(dbDir, `${name}.sqlite3`)}` },
    stdio: 'ignore',
  });
  const other = `bench-${name}-other@example.test`;
  execFileSync(process.execPath, ['--import', 'tsx', 'server/src/cli/admin.ts', 'user:add', '--email', other, '--name', '상대', '--password', PASSWORD], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: `sqlite:${path.join(dbDir, `${name}.sqlite3`)}` },
    stdio: 'ignore',
  });
  // Log in over HTTP to learn the ids and make a room with a few messages' worth of history.
  const login = await fetch(server.url + api.login, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url }, body: JSON.stringify({ email, password: PASSWORD }) });
  const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const { userId } = (await login.json()) as { userId: number };
  const otherLogin = await fetch(server.url + api.login, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url }, body: JSON.stringify({ email: other, password: PASSWORD }) });
  const { userId: otherId } = (await otherLogin.json()) as { userId: number };
  const room = await fetch(server.url + api.roomCreate, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: server.url },
    body: JSON.stringify({ targetUserId: otherId, targetUserName: '상대' }),
  });
  const { chatRoomId } = (await room.json()) as { chatRoomId: number };
  return { name, dist, server, userEmail: email, userId, chatRoomId };
}

interface Load {
  scripts: string[];
  stylesheets: string[];
  fcpMs: number | null;
  chatListFetches: number;
  historyPage0Fetches: number;
}

/** One cold load of `route` in a fresh context; optionally throttled and signed in. */
/** A request a signed-in page makes only once its STOMP subscription is confirmed (after the page may have gone quiet). */
type AwaitedFetch = 'chatListFetches' | 'historyPage0Fetches';

async function load(browser: Browser, build: Build, route: string, options: { throttled: boolean; signedIn: boolean; awaits?: AwaitedFetch }): Promise<Load> {
  const context = await browser.newContext({ baseURL: build.server.url, locale: 'ko-KR', viewport: { width: 390, height: 844 } });
  try {
    if (options.signedIn) {
      const res = await context.request.post(api.login, { data: { email: build.userEmail, password: PASSWORD }, headers: { origin: build.server.url } });
      if (!res.ok()) throw new Error(`bench login failed: ${res.status()}`);
      await context.addInitScript((uid) => window.localStorage.setItem('uid', String(uid)), build.userId);
    }
    // Records the first contentful paint as it happens (buffered), for pages that paint only after their script runs.
    await context.addInitScript(() => {
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') (window as unknown as { fcp?: number }).fcp = entry.startTime;
      }).observe({ type: 'paint', buffered: true });
    });
    const page: Page = await context.newPage();
    const scripts: string[] = [];
    const stylesheets: string[] = [];
    let chatListFetches = 0;
    let historyPage0Fetches = 0;
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (request.resourceType() === 'script') scripts.push(url.pathname);
      if (request.resourceType() === 'stylesheet') stylesheets.push(url.pathname);
      if (url.pathname === api.chats) chatListFetches += 1;
      if (url.pathname === api.chatHistory && url.searchParams.get('page') === '0') historyPage0Fetches += 1;
    });
    if (options.throttled) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', NETWORK);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    }
    await page.goto(route, { waitUntil: 'load', timeout: 120_000 });
    await page.waitForLoadState('networkidle', { timeout: 120_000 }).catch(() => {});
    if (options.awaits) {
      // A room asks for its history, and the list for the chats, only once its STOMP
      // subscription is confirmed, which can come after the page first went quiet: wait for that
      // request, then for the page to go quiet again (a second, duplicate request would come then).
      const count = () => (options.awaits === 'chatListFetches' ? chatListFetches : historyPage0Fetches);
      const deadline = Date.now() + 60_000;
      while (count() === 0 && Date.now() < deadline) await page.waitForTimeout(100);
      await page.waitForLoadState('networkidle', { timeout: 120_000 }).catch(() => {});
      await page.waitForTimeout(1000);
    }
    const fcpMs = await page
      .waitForFunction(() => (window as unknown as { fcp?: number }).fcp ?? null, null, { timeout: 60_000 })
      .then((handle) => handle.jsonValue() as Promise<number>)
      .catch(() => null);
    return { scripts: [...new Set(scripts)], stylesheets: [...new Set(stylesheets)], fcpMs, chatListFetches, historyPage0Fetches };
  } finally {
    await context.close();
  }
}

function compressedSizes(dist: string, scripts: string[]): { gzip: number; brotli: number } {
  let gzip = 0;
  let brotli = 0;
  for (const script of scripts) {
    const file = path.join(dist, script);
    if (!fs.existsSync(file)) continue;
    const body = fs.readFileSync(file);
    gzip += zlib.gzipSync(body, { level: 9 }).length;
    brotli += zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return { gzip, brotli };
}

/** The linkifier's chunk (MessageText.tsx loads it on demand), compressed as the routes' scripts are. */
function linkifierNote(dist: string): string {
  const chunk = fs.readdirSync(dist).find((name) => /^linkify\.[0-9a-f]+\.js$/.test(name));
  if (!chunk) return 'no linkify chunk found in the build';
  const size = compressedSizes(dist, [`/${chunk}`]);
  return `${kib(size.gzip)} gzip / ${kib(size.brotli)} brotli more`;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const kib = (bytes: number) => `${(bytes / KIB).toFixed(1)} KiB`;

async function measure(browser: Browser, build: Build) {
  const routes = [
    { name: '/login', path: '/login', signedIn: false },
    { name: '/sign-up', path: '/sign-up', signedIn: false },
    { name: '/chat-list', path: '/chat-list', signedIn: true },
    { name: '/chat-room', path: `/chat-room?cri=${build.chatRoomId}`, signedIn: true },
    { name: '/find-user', path: '/find-user', signedIn: true },
    { name: '/call', path: '/call', signedIn: true },
  ];
  const bytes: Record<string, { gzip: number; brotli: number }> = {};
  const css: Record<string, { gzip: number; brotli: number }> = {};
  const fetches: Record<string, Load> = {};
  for (const route of routes) {
    const awaits = route.name === '/chat-room' ? 'historyPage0Fetches' : route.name === '/chat-list' ? 'chatListFetches' : undefined;
    const loaded = await load(browser, build, route.path, { throttled: false, signedIn: route.signedIn, awaits });
    bytes[route.name] = compressedSizes(build.dist, loaded.scripts);
    css[route.name] = compressedSizes(build.dist, loaded.stylesheets);
    fetches[route.name] = loaded;
    log(`${build.name} ${route.name}: ${loaded.scripts.length} scripts, ${kib(bytes[route.name].gzip)} gzip`);
    // CLIENT_LOAD_LIST=1: which scripts, to see what a route carries.
    if (process.env.CLIENT_LOAD_LIST) log(`  ${loaded.scripts.join(' ')}`);
  }
  const fcp: Record<string, number> = {};
  for (const route of routes.filter((r) => r.name === '/login' || r.name === '/chat-list')) {
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const loaded = await load(browser, build, route.path, { throttled: true, signedIn: route.signedIn });
      if (loaded.fcpMs !== null) samples.push(loaded.fcpMs);
    }
    fcp[route.name] = median(samples);
    log(`${build.name} ${route.name}: FCP samples ${samples.map((s) => Math.round(s)).join(', ')} ms`);
  }
  return { bytes, css, fcp, fetches };
}

async function main(): Promise<void> {
  const ours = path.join(ROOT, 'dist');
  if (!fs.existsSync(path.join(ours, 'index.html'))) throw new Error('dist/ is not built: run make build');
  const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'letschat-bench-client-'));
  let baselineDir: string | null = null;
  let baselineProblem: string | null = null;
  if (!args['skip-baseline']) {
    try {
      log(`building the baseline ${args.baseline}`);
      baselineDir = buildBaseline(args.baseline);
    } catch (error) {
      baselineProblem = (error as Error).message.split('\n')[0];
    }
  }
  const browser = await launchChromium();
  const builds: Build[] = [];
  try {
    builds.push(await prepare('ours', ours, dbDir));
    if (baselineDir) builds.push(await prepare('baseline', path.join(baselineDir, 'dist'), dbDir));
    const [oursResult, baseResult] = [await measure(browser, builds[0]), builds[1] ? await measure(browser, builds[1]) : null];

    const figures: Figure[] = [];
    for (const route of Object.keys(oursResult.bytes)) {
      const o = oursResult.bytes[route];
      const b = baseResult?.bytes[route];
      const goal = route === '/login' ? LOGIN_GOAL_KIB : ROUTE_GOAL_KIB;
      figures.push({
        measure: `JS for ${route} (gzip / brotli)`,
        value: `${kib(o.gzip)} / ${kib(o.brotli)}`,
        baseline: b ? `${kib(b.gzip)} / ${kib(b.brotli)}` : undefined,
        ratio: b ? `${(o.gzip / b.gzip).toFixed(2)}×` : undefined,
        goal: `≤ ${goal} KiB gzip`,
        verdict: upperGoal(o.gzip / KIB, goal, 'KiB'),
      });
    }
    for (const route of Object.keys(oursResult.fcp)) {
      const o = oursResult.fcp[route] / 1000;
      const b = baseResult ? baseResult.fcp[route] / 1000 : null;
      figures.push({
        measure: `FCP ${route} (4× CPU, 1.6 Mbps / 150 ms, median of ${RUNS})`,
        value: `${o.toFixed(2)} s`,
        baseline: b !== null ? `${b.toFixed(2)} s` : `${QUOTED_BASELINE_FCP_S} s (quoted, not measured in this run)`,
        ratio: `${(o / (b ?? QUOTED_BASELINE_FCP_S)).toFixed(2)}×`,
      });
    }
    for (const [route, key, what] of [
      ['/chat-list', 'chatListFetches', 'GET chat list per load of /chat-list'],
      ['/chat-room', 'historyPage0Fetches', 'GET history page 0 per load of a room'],
    ] as const) {
      figures.push({
        measure: what,
        value: String(oursResult.fetches[route][key]),
        baseline: baseResult ? String(baseResult.fetches[route][key]) : undefined,
        goal: '1',
        verdict: oursResult.fetches[route][key] === 1 ? 'met' : `missed (${oursResult.fetches[route][key]})`,
      });
    }
    emitResult({
      title: 'Client load (JavaScript per route, first contentful paint)',
      figures,
      notes: [
        `Baseline: commit ${args.baseline} built with its own webpack config in this run${baselineProblem ? ` (FAILED: ${baselineProblem}; quoted figures used)` : ''}, served by our server (no compressed copies exist for it, so it goes out uncompressed, as it did).`,
        'JS bytes: every script a cold load requests until the network is idle, each compressed here with gzip -9 and brotli 11 (what a visitor downloads at most).',
        `Previous session's figures (main at 09bbae6, before features were installed per screen): /login ${PREVIOUS_SESSION_KIB.login} KiB gzip, a room ${PREVIOUS_SESSION_KIB.room} KiB gzip.`,
        `Stylesheets (not in the JS figures; gzip): ${Object.entries(oursResult.css)
          .map(([route, size]) => `${route} ${kib(size.gzip)}${baseResult ? ` (baseline ${kib(baseResult.css[route].gzip)})` : ''}`)
          .join(', ')}.`,
        `FCP: Chromium at 390×844, a fresh context per load (cold cache), CPU slowed 4× and the network emulated at 1.6 Mbps down, 750 kbps up, 150 ms latency (DevTools protocol); median of ${RUNS}.`,
        'Fetch counts: requests of GET /api/chat-list/chats and of history page 0 in one unthrottled load, signed in.',
        `The bench's room holds no message: a room showing a message that may hold an address also fetches the linkifier after its messages render (${linkifierNote(ours)}).`,
      ],
    });
  } finally {
    await browser.close().catch(() => {});
    for (const build of builds) await build.server.stop().catch(() => {});
    fs.rmSync(dbDir, { recursive: true, force: true });
    if (baselineDir) fs.rmSync(baselineDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`client-load: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
